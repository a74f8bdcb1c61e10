/* Shared by the stm32f4 register-model test files. */
#ifndef TEST_STM32F4_H
#define TEST_STM32F4_H

void SysTick_Handler(void);
/* Power-on, the ST-LINK's clock present or not (`hse`), then the port's clock and tick set-up. */
void boot(int hse);
/* RM0368's sequences for RCC, the IWDG, the flash controller and I2C1 (test_stm32f4_sequences.c). */
void stm32f4_sequence_tests(void);

#endif
