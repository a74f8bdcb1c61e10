/* The nRF51 port's modules (BBC micro:bit v1: nRF51822, Cortex-M0 at 16 MHz, 256 KB flash, 16 KB
 * RAM), one concern each. Two builds share this list:
 *   the board: TWI0 to the DRV2605L, the watchdog;
 *   THRUM_QEMU (QEMU's `microbit` machine): QEMU's TWI is a stub that answers nothing useful, so the
 *   DRV2605L is a stand-in whose register writes go out through semihosting (`i2c 5a RR VV`). The
 *   UART, TIMER0, the NVMC and the flash slots are the same code in both. */
#ifndef THRUM_NRF51_PORT_H
#define THRUM_NRF51_PORT_H

#include <stdint.h>

#include "boot_epoch.h"
#include "nrf51_regs.h"
#include "thr_core.h"

/* clock.c: the 16 MHz crystal for TIMER0 and the UART (the internal RC is ±2 %, PS §8.3). Waits at
 * most CLOCK_WAIT_LOOPS passes of busy loop (about 10 ms); clock_crystal says whether it started. */
extern uint8_t clock_crystal;
void clock_init(void);

/* tick.c: board time from TIMER0 (32 bits at 1 MHz) and its 1 ms compare that wakes the loop. */
void tick_init(void);
uint32_t tick_now_us(void);

/* uart0.c: the host link on P0.24 (TX) / P0.25 (RX), 115200 8N1, the interface chip's USB serial.
 * Received bytes go to the core from the interrupt; flow control holds the line back while the
 * core's receive ring is full. */
void uart0_init(thr_core *core);
void uart0_write(void *ctx, const uint8_t *data, uint32_t length);
uint32_t uart0_irq_mask(void *ctx);
void uart0_irq_restore(void *ctx, uint32_t state);
void uart0_resume(void); /* main loop, after the poll: takes bytes again once the ring has room */

/* twi0.c (board) / i2c_standin.c (QEMU): the HAL's i2c_transfer (thr_hal.h). Bus 0 is TWI0; there is
 * no other (THR_I2C_NACK). Returns within TWI_TIMEOUT_US per byte plus the transfer's own time. */
#define TWI_TIMEOUT_US 1000u
void twi_init(void);
int twi_transfer(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                 uint32_t rx_length);

/* nvmc.c: the slot region in the chip's own flash, addresses from 0 (thr_hal.h). */
extern const uint32_t slot_flash_size, slot_page_size;
int slot_flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length);
int slot_flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length);
int slot_flash_erase(void *ctx, uint32_t page_address);

/* wdt.c: started once, kicked from the main loop (and before each flash operation, which halts the
 * CPU). Its timeout in milliseconds. */
#define WATCHDOG_TIMEOUT_MS 1000u
void watchdog_start(void);
void watchdog_kick(void);

/* reset.c: the system reset (../common/boot_epoch.h: the boot epoch). */
void system_reset(void);

/* board.c: the board configuration, the HAL and the DRV2605L channel. */
extern thr_core board_core;
void board_init(void);
void board_poll(void); /* main loop, after thr_core_poll: the chip's standby, status, retries */

#if THRUM_QEMU
/* semihosting.c (QEMU, -semihosting-config enable=on,target=native[,chardev=...]): one text line at
 * a time to QEMU's semihosting output, and QEMU's exit status. On a board without a debugger the BKPT
 * is a HardFault: never in the board image. */
void semihosting_write_line(const char *text);
void semihosting_exit(uint32_t status);

/* stack_meter.c: the stack's deepest reach, `stack max N` on the trace when it grows (checked once a
 * second from the main loop). */
void stack_meter_paint(void); /* first thing in main */
void stack_meter_poll(uint32_t now_us);

#endif
/* trace_line.c: the trace's trace_put and trace_end_line (a line sent whole through semihosting). */
#include "trace_format.h"

#endif
