/* A register-level model of one DRV2605L on an I2C bus, for the driver's host tests: the register
 * file with its reset values, the mode rules (standby ignores RTP_INPUT, DEV_RESET that may NACK and
 * read back set for a while, GO that clears itself when a calibration ends, by model time), STATUS bits a test sets, a log of transactions,
 * and switches that make it NACK or time out. */
#ifndef MODEL_DRV2605L_H
#define MODEL_DRV2605L_H

#include <stdint.h>

#include "drv2605l_regs.h"

#define MODEL_CAL_US 1100000u /* AUTO_CAL_TIME 3: 1000-1200 ms */
#define MODEL_LOG    4096u

typedef struct model_i2c_op {
    uint8_t reg;    /* first register */
    uint8_t length; /* bytes written (after the register) or read */
    uint8_t read;
    uint8_t value; /* first byte written or read */
} model_i2c_op;

typedef struct model_drv2605l {
    uint8_t reg[DRV2605L_REG_COUNT];
    uint32_t now_us;   /* model time: the test sets it */
    uint8_t nack;      /* 1: every transaction is refused (no chip) */
    uint8_t timeout;   /* 1: every transaction times out (hung bus) */
    uint8_t cal_fails; /* the next calibration sets DIAG_RESULT */
    uint8_t cal_lra_period;
    uint8_t device_id;    /* STATUS[7:5] after a reset: DRV2605L_DEVICE_ID_DRV2605L unless a test changes it */
    uint32_t cal_done_at; /* GO clears at this model time (while calibrating) */
    /* DEV_RESET: for reset_nack_us after it the chip answers nothing (NACK), for reset_busy_us MODE
     * reads back with DEV_RESET set (both 0: done at once). reset_polls counts the transactions
     * between the reset and its end; reset_first_us is the model time of the first one after it. */
    uint32_t reset_nack_us, reset_busy_us, reset_at, reset_polls, reset_first_us;
    uint8_t resetting, reset_polled;
    uint8_t calibrating;
    uint32_t transactions; /* every call, answered or not */
    uint32_t rtp_writes;   /* writes reaching RTP_INPUT */
    uint32_t rtp_in_standby;
    uint32_t log_count;
    model_i2c_op log[MODEL_LOG];
} model_drv2605l;

/* Power-on: reset values, in standby, log cleared. */
void model_drv2605l_reset(model_drv2605l *m);
/* One transaction (thr_hal.i2c_transfer's contract). */
int model_drv2605l_transfer(model_drv2605l *m, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                            uint32_t rx_length);
/* What the chip drives now: RTP_INPUT as signed in RTP mode out of standby, else 0. */
int model_drv2605l_output(const model_drv2605l *m);

#endif
