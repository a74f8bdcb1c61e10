/* TI TCA9548A I2C switch: up to eight chips with one fixed address (DRV2605Ls at 0x5A) on one I2C
 * bus, one per downstream port. Portable C99 over thr_hal.i2c_transfer; registers in tca9548a_regs.h.
 *
 * The mux gives its channel drivers a HAL of their own (tca9548a_downstream_hal) whose bus n is
 * port n: a DRV2605L driver configured with bus = n talks to the chip on port n and knows nothing
 * of the mux. Each transfer selects its port first, but only when the port differs from the one
 * selected last: a channel whose level changes every tick costs the select only when another
 * channel was written in between. A failed select or a timeout leaves the selection unknown, so the
 * next transfer selects again (after a hung bus was cleared, the mux may not have seen the last
 * write); a chip's NACK does not (the mux acknowledged its select).
 *
 * Faults: a chip that does not answer on its port NACKs its own transfers only, so its channel alone
 * is missing (its driver reports THR_FAULT_ACTUATOR_MISSING); a mux that does not answer fails every
 * select, so every channel behind it is missing.
 *
 * I2C budget at 400 kHz (README.md): a level change is a select (2 bytes) and an RTP_INPUT write
 * (3 bytes), about 120 us of bus time; TCA9548A_CHANGES_PER_MS of them fit a 1 ms tick. */
#ifndef TCA9548A_H
#define TCA9548A_H

#include <stdint.h>

#include "tca9548a_regs.h"
#include "thr_hal.h"

/* Level changes (select + RTP write, README.md) that fit one millisecond of the bus at 400 kHz
 * while leaving a quarter of it to the core's tick and the link. */
#define TCA9548A_CHANGES_PER_MS 6u

#define TCA9548A_SELECTED_UNKNOWN 0xFFFFu

typedef struct tca9548a {
    const thr_hal *upstream; /* the bus the mux sits on: its i2c_transfer and now_us */
    uint8_t bus;             /* the upstream bus number */
    uint8_t address;         /* 0x70..0x77 (A2..A0) */
    uint16_t selected;       /* the control register as last written, or TCA9548A_SELECTED_UNKNOWN */
    uint32_t selects;        /* control register writes so far */
} tca9548a;

/* Connects no port (control 0x00) and reads the register back. THR_I2C_OK, THR_I2C_NACK for an
 * address outside 0x70..0x77 or a mux that does not answer (or answers with another value), or
 * the upstream bus's THR_I2C_TIMEOUT. */
int tca9548a_init(tca9548a *mux, const thr_hal *upstream, uint8_t bus, uint8_t address);
/* One transaction with `address` on downstream `port` (thr_hal.i2c_transfer's contract): selects
 * the port if it is not selected, then the transfer. THR_I2C_NACK for a port beyond 7. */
int tca9548a_transfer(tca9548a *mux, uint8_t port, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                      uint32_t rx_length);
/* A HAL for the drivers behind the mux: ctx is `mux`, i2c_transfer's bus is the port, now_us is the
 * upstream clock; every other hook is NULL. `hal` must outlive the drivers that use it. */
void tca9548a_downstream_hal(tca9548a *mux, thr_hal *hal);

#endif
