/* The DRV2605L model (model_drv2605l.h). Reset values from the datasheet's register map. */
#include "model_drv2605l.h"

#include <string.h>

#include "thr_hal.h"

static void registers_reset(model_drv2605l *m)
{
    memset(m->reg, 0, sizeof m->reg);
    m->reg[DRV2605L_REG_STATUS] = (uint8_t)(m->device_id << DRV2605L_DEVICE_ID_SHIFT);
    m->reg[DRV2605L_REG_MODE] = DRV2605L_STANDBY;
    m->reg[0x03] = 0x01; /* LIBRARY_SEL */
    m->reg[DRV2605L_REG_RATED_VOLTAGE] = 0x3E;
    m->reg[DRV2605L_REG_OD_CLAMP] = 0x8C;
    m->reg[DRV2605L_REG_A_CAL_COMP] = 0x0C;
    m->reg[DRV2605L_REG_A_CAL_BEMF] = 0x6C;
    m->reg[DRV2605L_REG_FEEDBACK_CONTROL] = 0x36;
    m->reg[DRV2605L_REG_CONTROL1] = DRV2605L_CONTROL1_DEFAULT;
    m->reg[DRV2605L_REG_CONTROL2] = DRV2605L_CONTROL2_DEFAULT;
    m->reg[DRV2605L_REG_CONTROL3] = 0xA0;
    m->reg[DRV2605L_REG_CONTROL4] = 0x20;
    m->calibrating = 0;
}

void model_drv2605l_reset(model_drv2605l *m)
{
    memset(m, 0, sizeof *m);
    m->device_id = DRV2605L_DEVICE_ID_DRV2605L;
    registers_reset(m);
    m->cal_lra_period = 59; /* 59 x 98.46 us: 172.1 Hz */
}

static void log_op(model_drv2605l *m, uint8_t reg, uint32_t length, int read, uint8_t value)
{
    if (m->log_count < MODEL_LOG) {
        model_i2c_op *op = &m->log[m->log_count];
        op->reg = reg;
        op->length = (uint8_t)length;
        op->read = (uint8_t)read;
        op->value = value;
    }
    m->log_count++;
}

/* Time passes: a calibration in progress ends at cal_done_at. */
static void advance(model_drv2605l *m)
{
    if (!m->calibrating || (int32_t)(m->now_us - m->cal_done_at) < 0) return;
    m->calibrating = 0;
    m->reg[DRV2605L_REG_GO] = 0;
    if (m->cal_fails) {
        m->reg[DRV2605L_REG_STATUS] |= DRV2605L_DIAG_RESULT;
        return;
    }
    m->reg[DRV2605L_REG_STATUS] &= (uint8_t)~DRV2605L_DIAG_RESULT;
    m->reg[DRV2605L_REG_A_CAL_COMP] = 0x0A;
    m->reg[DRV2605L_REG_A_CAL_BEMF] = 0x7B;
    m->reg[DRV2605L_REG_FEEDBACK_CONTROL] = (uint8_t)((m->reg[DRV2605L_REG_FEEDBACK_CONTROL] & 0xFCu) | 1u);
    m->reg[DRV2605L_REG_LRA_PERIOD] = m->cal_lra_period;
}

static void write_reg(model_drv2605l *m, uint8_t reg, uint8_t value)
{
    if (reg >= DRV2605L_REG_COUNT || reg == DRV2605L_REG_STATUS || reg == DRV2605L_REG_LRA_PERIOD ||
        reg == 0x21 /* VBAT */)
        return; /* read only */
    if (reg == DRV2605L_REG_MODE && (value & DRV2605L_DEV_RESET)) {
        registers_reset(m); /* DEV_RESET: back to reset values, the bit set until reset_busy_us */
        m->resetting = 1;
        m->reset_polled = 0;
        m->reset_polls = 0;
        m->reset_at = m->now_us;
        if (m->reset_busy_us) m->reg[DRV2605L_REG_MODE] |= DRV2605L_DEV_RESET;
        return;
    }
    if (reg == DRV2605L_REG_RTP_INPUT) {
        m->rtp_writes++;
        if (m->reg[DRV2605L_REG_MODE] & DRV2605L_STANDBY) m->rtp_in_standby++;
    }
    if (reg == DRV2605L_REG_GO) {
        uint8_t mode = m->reg[DRV2605L_REG_MODE];
        if (!(value & DRV2605L_GO)) {
            m->calibrating = 0; /* clearing GO cancels */
        } else if ((mode & DRV2605L_MODE_MASK) == DRV2605L_MODE_AUTO_CAL && !(mode & DRV2605L_STANDBY)) {
            m->calibrating = 1;
            m->cal_done_at = m->now_us + MODEL_CAL_US;
        } else {
            value = 0; /* nothing to run in this mode */
        }
    }
    m->reg[reg] = value;
}

int model_drv2605l_transfer(model_drv2605l *m, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                            uint32_t rx_length)
{
    uint32_t i;
    uint8_t reg;
    m->transactions++;
    if (m->resetting) {
        uint32_t since = m->now_us - m->reset_at;
        if (!m->reset_polled) m->reset_first_us = m->now_us;
        m->reset_polled = 1;
        if (since >= m->reset_nack_us && since >= m->reset_busy_us) {
            m->resetting = 0;
            m->reg[DRV2605L_REG_MODE] &= (uint8_t)~DRV2605L_DEV_RESET;
        } else {
            m->reset_polls++;
        }
    }
    if (m->timeout) return THR_I2C_TIMEOUT;
    if (m->nack || address != 0x5Au || tx_length == 0u) return THR_I2C_NACK;
    if (m->resetting && m->now_us - m->reset_at < m->reset_nack_us) return THR_I2C_NACK;
    advance(m);
    reg = tx[0];
    if (tx_length > 1u) log_op(m, reg, tx_length - 1u, 0, tx[1]);
    for (i = 1; i < tx_length; i++) write_reg(m, (uint8_t)(reg + i - 1u), tx[i]); /* auto-increment */
    for (i = 0; i < rx_length; i++) {
        uint8_t r = (uint8_t)(reg + i);
        rx[i] = r < DRV2605L_REG_COUNT ? m->reg[r] : 0u;
        /* OC_DETECT and OVER_TEMP latch until STATUS is read */
        if (r == DRV2605L_REG_STATUS)
            m->reg[r] &= (uint8_t) ~(DRV2605L_OC_DETECT | DRV2605L_OVER_TEMP | DRV2605L_DIAG_RESULT);
    }
    if (rx_length) log_op(m, reg, rx_length, 1, rx[0]);
    return THR_I2C_OK;
}

int model_drv2605l_output(const model_drv2605l *m)
{
    uint8_t mode = m->reg[DRV2605L_REG_MODE];
    if ((mode & DRV2605L_STANDBY) || (mode & DRV2605L_MODE_MASK) != DRV2605L_MODE_RTP) return 0;
    return (int8_t)m->reg[DRV2605L_REG_RTP_INPUT];
}
