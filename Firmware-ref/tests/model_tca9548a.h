/* A model of a TCA9548A I2C switch on a bus, with one DRV2605L model (model_drv2605l.h) on each
 * downstream port that has one: the control register (the last byte written is kept; a read returns
 * it; 0x00 from power-on), transfers to other addresses forwarded to the chips on the connected
 * ports, and the bus traffic counted in bytes (address bytes included) for the I2C budget. */
#ifndef MODEL_TCA9548A_H
#define MODEL_TCA9548A_H

#include <stdint.h>

#include "model_drv2605l.h"
#include "tca9548a_regs.h"

typedef struct model_tca9548a {
    uint8_t address;
    uint8_t present; /* 0: nothing answers at the mux's address */
    uint8_t control;
    model_drv2605l *chips[TCA9548A_PORTS]; /* NULL: nothing on that port */
    uint32_t control_writes;
    uint32_t bytes;        /* every byte on the upstream bus: addresses, data, both directions */
    uint32_t transactions; /* upstream transactions (a write and its repeated-start read count once) */
} model_tca9548a;

/* Power-on: present at `address`, no port connected, no chips (the test places them). */
void model_tca9548a_reset(model_tca9548a *m, uint8_t address);
/* One transaction on the upstream bus (thr_hal.i2c_transfer's contract). Each chip's now_us is set
 * to `now_us` first. */
int model_tca9548a_transfer(model_tca9548a *m, uint32_t now_us, uint8_t address, const uint8_t *tx, uint32_t tx_length,
                            uint8_t *rx, uint32_t rx_length);

#endif
