/* The STM32F4 port's modules, one concern each. Two builds share this list:
 *   the board (Nucleo-F401RE): real clocks, I2C1, flash controller, IWDG;
 *   THRUM_QEMU (QEMU's netduinoplus2, an STM32F405): what QEMU does not model is replaced by
 *   RAM-backed flash, an I2C trace on USART1 and a SysTick-counted software watchdog. */
#ifndef THRUM_STM32F4_PORT_H
#define THRUM_STM32F4_PORT_H

#include <stdint.h>

#include "boot_epoch.h"
#include "stm32f4_regs.h"
#include "thr_core.h"

/* The actuator channels (Makefile: THRUM_CHANNELS, THRUM_MUX): one DRV2605L each; with THRUM_MUX,
 * each on its own port of a TCA9548A at THRUM_MUX_ADDRESS (drivers/tca9548a), channel n on port n. */
#ifndef THRUM_CHANNELS
#define THRUM_CHANNELS 1u
#endif
#ifndef THRUM_MUX
#define THRUM_MUX 0
#endif
#ifndef THRUM_MUX_ADDRESS
#define THRUM_MUX_ADDRESS 0x70u /* A2..A0 tied low (TI SCPS207H §7.5.2, table 7-1) */
#endif

/* Core clock: the Nucleo runs the PLL at 84 MHz; QEMU's netduinoplus2 clocks SysTick at 168 MHz
 * whatever RCC is told (it does not model RCC). APB1 is half the core clock on the Nucleo, and its
 * timers run at twice APB1 (RM0368 §6.2: an APB prescaler other than 1 doubles the timer clock):
 * 84 MHz. QEMU clocks TIM2-5 at 1 GHz of its virtual time. */
#if THRUM_QEMU
#define CORE_CLOCK_HZ  168000000u
#define TIMER_CLOCK_HZ 1000000000u
#else
#define CORE_CLOCK_HZ  84000000u
#define TIMER_CLOCK_HZ 84000000u
#endif
#define APB1_CLOCK_HZ 42000000u

/* Code that must run while the flash is busy erasing or programming (every read of it stalls then,
 * RM0368 §3.5): linked into .ramfunc, which Reset_Handler copies to RAM (sections.ld), and it calls
 * nothing outside RAM (tools/ram_check.py checks the image). The host's register model runs it as
 * plain code. */
#ifdef STM32F4_REGISTER_MODEL
#define RAMFUNC __attribute__((noinline))
#else
#define RAMFUNC __attribute__((section(".ramfunc"), noinline, long_call))
#endif

/* clock.c: the ST-LINK's 8 MHz MCO (HSE bypass), or HSI when it does not start, -> PLL -> 84 MHz,
 * flash wait states, peripheral clocks. clock_source says which runs. */
#define CLOCK_HSE_BYPASS   1u
#define CLOCK_HSI_FALLBACK 2u
extern uint8_t clock_source;
void clock_init(void);

/* tick.c: board time from TIM5 at 1 MHz; SysTick at 1 kHz wakes the loop and counts milliseconds. */
void tick_init(void);
uint32_t tick_ms(void);
uint32_t tick_now_us(void);

/* usart2.c: the host link, 115200 8N1. Received bytes go to the core from the interrupt. */
void usart2_init(thr_core *core);
void usart2_write(const uint8_t *data, uint32_t length);
uint32_t usart2_irq_mask(void);
void usart2_irq_restore(uint32_t state);

/* i2c1.c (board) / i2c_trace.c (QEMU): the HAL's i2c_transfer (thr_hal.h). Bus 0 is I2C1; there
 * is no other bus (THR_I2C_NACK). Returns within I2C_TIMEOUT_MS plus one transfer's time. */
#define I2C_TIMEOUT_MS 5u
void i2c_init(void);
int i2c_transfer(uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length);

/* flash.c (board) / flash_ram.c (QEMU): the slot region, addresses from 0 (thr_hal.h). */
extern const uint32_t slot_flash_size, slot_sector_size;
void slot_flash_init(void);
int slot_flash_read(uint32_t address, uint8_t *out, uint32_t length);
int slot_flash_write(uint32_t address, const uint8_t *data, uint32_t length);
int slot_flash_erase(uint32_t sector_address);

/* iwdg.c (board) / watchdog_soft.c (QEMU): started once, kicked from the main loop. */
void watchdog_start(void);
void watchdog_kick(void);
#if THRUM_QEMU
#include "trace_format.h"
void watchdog_on_tick(void);    /* SysTick: counts the milliseconds since the last kick */
void watchdog_stall_main(void); /* the QEMU test hook: the main loop stops kicking */
extern volatile uint8_t watchdog_stall_requested;
#endif

/* reset.c: the system reset (../common/boot_epoch.h: the boot epoch). */
void system_reset(void);

/* board.c: the board configuration and the HAL. */
extern thr_core board_core;
void board_init(void);

#if THRUM_QEMU
/* usart1_trace.c: USART1, QEMU's first -serial: the I2C trace and the figures, one line each (its
 * trace_put and trace_end_line; ../common/trace_format.h formats). */
void trace_init(void);

/* tick_meter.c: instructions per tick from TIM2 (1 per instruction with -icount shift=0). */
void tick_meter_init(void);
static inline uint32_t tick_meter_now(void)
{
    return TIM_CNT(TIM2_BASE);
}
void tick_meter_record(uint32_t instructions);

/* semihosting.c: QEMU exit status (needs -semihosting-config enable=on,target=native). */
void semihosting_exit(uint32_t status);
#endif

#endif
