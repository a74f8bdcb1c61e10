/* The actuator channels behind the HAL's actuator_write (actuator_rtp.c for now). */
#ifndef THRUM_STM32F4_BOARD_ACTUATOR_H
#define THRUM_STM32F4_BOARD_ACTUATOR_H

#include <stdint.h>

void board_actuator_init(void);
void board_actuator_write(uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz);

#endif
