/* The actuator channels behind the HAL: one DRV2605L per channel (drivers/drv2605l.h). With
 * THRUM_MUX, channel n's chip is on port n of the TCA9548A on I2C1 (drivers/tca9548a); without it
 * channel n is on I2C bus n, and this board has bus 0 only (a second channel's chip reports itself
 * missing). */
#ifndef THRUM_STM32F4_BOARD_ACTUATOR_H
#define THRUM_STM32F4_BOARD_ACTUATOR_H

#include <stdint.h>

#include "thr_core.h"

/* Before thr_core_init: configures every channel's chip from the board configuration. */
void board_actuator_init(const thr_hal *hal, const thr_board_config *config);
void board_actuator_write(uint8_t channel, int16_t drive_q14);
thr_status board_actuator_calibrate_start(uint8_t channel);
int board_actuator_calibrate_poll(uint8_t channel, thr_calibration *result);
/* Main loop, after thr_core_poll: standby, status reads, retries; faults go to the core. */
void board_actuator_poll(thr_core *core);

#endif
