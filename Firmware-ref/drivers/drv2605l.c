/* TI DRV2605L driver over thr_hal.i2c_transfer (drv2605l.h). Register-level; the register map is
 * drv2605l_regs.h. Every transfer's failure marks the chip missing: from then on only the slow
 * retry talks to it, so a dead or absent chip costs one bounded transfer a second; a chip that answers
 * the retry is configured again, which waits 2 to 10 ms for its DEV_RESET to finish (a main-loop
 * stall the core catches up from). */
#include "drv2605l.h"

#include "drv2605l_regs.h"
#include "thr_core.h" /* thr_isqrt */

/* After DEV_RESET. SLOS854D gives the bit no completion time (MODE register, 0x01: "self-clears
 * after the reset operation is complete", the equivalent of a power cycle) and asks for 250 us after
 * power-up before I2C commands ("Initialization Procedure"); Zephyr's driver waits 100 ms. So: no
 * traffic for RESET_QUIET_US, then MODE is read until DEV_RESET has cleared, a NACK counting as "not
 * yet" (a chip that resets answers nothing), and only after RESET_GIVE_UP_US is the chip missing. */
#define RESET_QUIET_US   2000u
#define RESET_GIVE_UP_US 10000u

static int due(uint32_t at, uint32_t now)
{
    return (int32_t)(now - at) >= 0;
}

static uint32_t at_most(uint32_t value, uint32_t max)
{
    return value > max ? max : value;
}
#define byte_of(value, max) ((uint8_t)at_most(value, max))

/* An I2C failure: the chip is missing; tell the core once, retry slowly. */
static int lost(drv2605l *dev, int result)
{
    if (!(dev->flags & DRV2605L_F_MISSING)) dev->report = THR_FAULT_ACTUATOR_MISSING;
    dev->flags = DRV2605L_F_MISSING;
    dev->retry_at = dev->now + DRV2605L_RETRY_MS * 1000u;
    return result;
}

static int transfer(drv2605l *dev, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    int r = dev->hal->i2c_transfer(dev->hal->ctx, dev->config->bus, dev->config->address, tx, tx_length, rx, rx_length);
    return r == THR_I2C_OK ? r : lost(dev, r);
}

static int write_reg(drv2605l *dev, uint8_t reg, uint8_t value)
{
    uint8_t tx[2];
    tx[0] = reg;
    tx[1] = value;
    return transfer(dev, tx, 2, 0, 0);
}

/* Reads `n` consecutive registers from `reg` (the chip increments the address). */
static int read_regs(drv2605l *dev, uint8_t reg, uint8_t *out, uint32_t n)
{
    return transfer(dev, &reg, 1, out, n);
}

/* RATED_VOLTAGE and OD_CLAMP: TI's DRV2605L datasheet, SLOS854D, 8.5.2.1 "Rated Voltage Programming"
 * and 8.5.2.2 "Overdrive Voltage-Clamp Programming" (the same in SLOS854C). One step of each, per
 * mode, in 10 uV (so a register is mV x 100 / step):
 *   Equation 4, ERM closed loop:  V(ERM-CL_AV)  = 21.18 mV x RATED_VOLTAGE
 *   Equation 5, LRA closed loop:  V(LRA-CL_RMS) = 20.58 mV x RATED_VOLTAGE / sqrt(1 - (4 t(SAMPLE_TIME) + 300 us) f)
 *   Equation 6, ERM open loop:    V(ERM-OL_AV)  = 21.59 mV x OD_CLAMP
 *   Equation 7, LRA open loop:    V(LRA-OL_RMS) = 21.32 mV x OD_CLAMP x sqrt(1 - 800 us x f)
 *   Equation 8, ERM clamp:        V(ERM_clamp)  = 21.64 mV x OD_CLAMP x (t(DRIVE_TIME) - 300 us)
 *                                                 / (t(DRIVE_TIME) + t(IDISS_TIME) + t(BLANKING_TIME))
 *   Equation 9, LRA clamp:        V(LRA_clamp)  = 21.22 mV x OD_CLAMP
 * (Not the DRV2605's 5.6 V / 255 = 21.96 mV.) Open loop ignores RATED_VOLTAGE, but auto-calibration
 * reads it, so it is always written; in open loop OD_CLAMP is the full-scale level. */
#define ERM_RATED_STEP 2118u /* Equation 4 */
#define LRA_RATED_STEP 2058u /* Equation 5 */
#define ERM_OPEN_STEP  2159u /* Equation 6 */
#define LRA_OPEN_STEP  2132u /* Equation 7 */
#define ERM_CLAMP_STEP 2164u /* Equation 8 */
#define LRA_CLAMP_STEP 2122u /* Equation 9 */
/* Equation 8's times as this driver sets them for an ERM: DRIVE_TIME at its default (CONTROL1),
 * IDISS_TIME and BLANKING_TIME 1 (CONTROL2), in 5 us units to keep the products in 32 bits:
 * (4800 - 300) / (4800 + 75 + 75) us = 900 / 990. */
#define ERM_DRIVE_US      DRV2605L_ERM_DRIVE_TIME_US(DRV2605L_DRIVE_TIME_DEFAULT)
#define ERM_CLAMP_ON_5US  ((ERM_DRIVE_US - 300u) / 5u)
#define ERM_CLAMP_ALL_5US ((ERM_DRIVE_US + DRV2605L_ERM_IDISS_US + DRV2605L_ERM_BLANKING_US) / 5u)
/* OD_CLAMP's full scale is at most 255 x 21.64 mV = 5.5 V in every mode: a max_mv capped at 10 V
 * gives the same 255, and keeps mV x 100 x 1000 in 32 bits. */
#define OD_MV100_CAP 1000000u

/* num / den rounded, at most 255. */
static uint8_t steps(uint32_t num, uint32_t den)
{
    return byte_of((num + den / 2u) / den, 255u);
}

/* Equation 5 with SAMPLE_TIME 300 us (CONTROL2 as written) and f = dhz / 10 Hz:
 * 1 - 1.5 ms x f = (1,000,000 - 150 dhz) / 1,000,000, so with root = isqrt(1,000,000 - 150 dhz)
 *   RATED_VOLTAGE = rated_mv x 100 x (root / 1000) / 2058 = rated_mv x root / 20,580   (rounded). */
static uint8_t rated_voltage(const drv2605l_config *c)
{
    uint32_t root;
    if (c->kind == THR_ACTUATOR_KIND_ERM) return steps((uint32_t)c->rated_mv * 100u, ERM_RATED_STEP);
    root = c->resonant_dhz >= 6666u ? 0u : thr_isqrt(1000000u - 150u * c->resonant_dhz); /* sqrt x 1000 */
    return steps((uint32_t)c->rated_mv * root, LRA_RATED_STEP * 10u);
}

/* OD_CLAMP from max_mv: closed loop, Equation 8 (ERM) or 9 (LRA); open loop, Equation 6 (ERM) or 7
 * (LRA, root = isqrt(1,000,000 - 80 dhz): max_mv x 100 x 1000 / (2132 x root), rounded). */
static uint8_t od_clamp(const drv2605l_config *c)
{
    uint32_t mv100 = at_most((uint32_t)c->max_mv * 100u, OD_MV100_CAP), root;
    int erm = c->kind == THR_ACTUATOR_KIND_ERM;
    if (!c->open_loop)
        return erm ? steps(mv100 * ERM_CLAMP_ALL_5US, ERM_CLAMP_STEP * ERM_CLAMP_ON_5US) : steps(mv100, LRA_CLAMP_STEP);
    if (erm) return steps(mv100, ERM_OPEN_STEP);
    root = c->resonant_dhz >= 12500u ? 0u : thr_isqrt(1000000u - 80u * c->resonant_dhz);
    return root ? steps(mv100 * 1000u, LRA_OPEN_STEP * root) : 255u;
}

/* Waits for a DEV_RESET just written to finish (RESET_QUIET_US, RESET_GIVE_UP_US), on the HAL's
 * clock: THR_I2C_OK, or the chip is missing (a bus timeout at once: that is no chip resetting). */
static int reset_done(drv2605l *dev)
{
    const thr_hal *hal = dev->hal;
    uint32_t start = hal->now_us(hal->ctx), elapsed;
    uint8_t reg = DRV2605L_REG_MODE, value = DRV2605L_DEV_RESET;
    int r;
    while (hal->now_us(hal->ctx) - start < RESET_QUIET_US) {}
    for (;;) {
        r = hal->i2c_transfer(hal->ctx, dev->config->bus, dev->config->address, &reg, 1, &value, 1);
        if (r == THR_I2C_TIMEOUT) return lost(dev, r);
        if (r == THR_I2C_OK && !(value & DRV2605L_DEV_RESET)) return THR_I2C_OK;
        elapsed = hal->now_us(hal->ctx) - start;
        if (elapsed >= RESET_GIVE_UP_US) return lost(dev, r == THR_I2C_OK ? THR_I2C_TIMEOUT : r);
    }
}

/* Configures the chip from reset; leaves it in RTP mode at level 0. */
static int configure(drv2605l *dev)
{
    const drv2605l_config *c = dev->config;
    const drv2605l_calibration *cal = &dev->calibration;
    int lra = c->kind == THR_ACTUATOR_KIND_LRA;
    uint8_t block[8], value, control3;
    int r = write_reg(dev, DRV2605L_REG_MODE, DRV2605L_DEV_RESET);
    if (r != THR_I2C_OK) return r;
    if ((r = reset_done(dev)) != THR_I2C_OK) return r;
    r = read_regs(dev, DRV2605L_REG_STATUS, &value, 1);
    if (r != THR_I2C_OK) return r;
    value = (uint8_t)(value >> DRV2605L_DEVICE_ID_SHIFT);
    if (value != DRV2605L_DEVICE_ID_DRV2605L && value != DRV2605L_DEVICE_ID_DRV2605)
        return lost(dev, THR_I2C_NACK); /* something else answers at this address */
    /* out of standby (internal trigger) while configuring */
    r = write_reg(dev, DRV2605L_REG_MODE, DRV2605L_MODE_INTERNAL);
    /* 0x16-0x1C in one write: RATED_VOLTAGE, OD_CLAMP, A_CAL_COMP, A_CAL_BEMF, FEEDBACK_CONTROL, CONTROL1,
     * CONTROL2 */
    block[0] = DRV2605L_REG_RATED_VOLTAGE;
    block[1] = rated_voltage(c);
    block[2] = od_clamp(c);
    block[3] = cal->valid ? cal->a_cal_comp : 0x0Du; /* the chip's reset values without a calibration */
    block[4] = cal->valid ? cal->a_cal_bemf : 0x6Du;
    block[5] = (uint8_t)((lra ? DRV2605L_N_ERM_LRA : 0u) | DRV2605L_FB_BRAKE_FACTOR_4X | DRV2605L_LOOP_GAIN_MEDIUM |
                         (cal->valid ? cal->bemf_gain & DRV2605L_BEMF_GAIN_MASK : DRV2605L_BEMF_GAIN_DEFAULT));
    /* LRA: DRIVE_TIME about half the period: (DRIVE_TIME x 0.1 + 0.5) ms = 1 / (2 f) = 50,000 / dhz x 0.1 ms */
    block[6] = lra && c->resonant_dhz
                   ? (uint8_t)(DRV2605L_STARTUP_BOOST |
                               byte_of(50000u / c->resonant_dhz > 5u ? 50000u / c->resonant_dhz - 5u : 0u,
                                       DRV2605L_DRIVE_TIME_MASK))
                   : DRV2605L_CONTROL1_DEFAULT;
    /* written, not left to the reset: its SAMPLE_TIME is Equation 5's, its IDISS_TIME and BLANKING_TIME
     * Equation 8's (SLOS854C's Table 25 gave them 2 at reset; SLOS854D corrects that to 1) */
    block[7] = DRV2605L_CONTROL2_DEFAULT;
    if (r == THR_I2C_OK) r = transfer(dev, block, sizeof block, 0, 0);
    /* signed RTP data; open or closed loop */
    control3 = DRV2605L_NG_THRESH_4PCT;
    if (c->open_loop) control3 |= lra ? DRV2605L_LRA_OPEN_LOOP : DRV2605L_ERM_OPEN_LOOP;
    if (r == THR_I2C_OK) r = write_reg(dev, DRV2605L_REG_CONTROL3, control3);
    if (r == THR_I2C_OK) r = write_reg(dev, DRV2605L_REG_CONTROL4, DRV2605L_AUTO_CAL_TIME_1S);
    /* open-loop LRA period: 1 / f = OL_LRA_PERIOD x 98.46 us -> 10^9 / (dhz x 9846) */
    if (r == THR_I2C_OK && lra && c->open_loop && c->resonant_dhz)
        r = write_reg(
            dev, DRV2605L_REG_OL_LRA_PERIOD,
            byte_of((1000000000u + (uint32_t)c->resonant_dhz * 4923u) / ((uint32_t)c->resonant_dhz * 9846u), 127u));
    if (r == THR_I2C_OK) r = write_reg(dev, DRV2605L_REG_RTP_INPUT, 0);
    if (r == THR_I2C_OK) r = write_reg(dev, DRV2605L_REG_MODE, DRV2605L_MODE_RTP);
    if (r != THR_I2C_OK) return r;
    dev->rtp = 0;
    dev->flags = 0;
    return THR_I2C_OK;
}

int drv2605l_init(drv2605l *dev, const thr_hal *hal, const drv2605l_config *config,
                  const drv2605l_calibration *calibration, uint32_t now_us)
{
    const drv2605l_calibration none = { 0, 0, 0, 0, 0 };
    uint32_t reference;
    dev->hal = hal;
    dev->config = config;
    dev->calibration = calibration && calibration->valid ? *calibration : none;
    dev->now = now_us;
    dev->idle_since = dev->status_at = dev->retry_at = dev->cal_started = dev->cal_polled = now_us;
    dev->rtp = 0;
    dev->flags = 0;
    dev->report = DRV2605L_REPORT_NONE;
    /* RTP full scale: in closed loop RATED_VOLTAGE (the chip overdrives and brakes by itself), in
     * open loop OD_CLAMP = max_mv. The drive is Q14 of max_mv: rtp = drive x 127 x max / reference
     * / 16384, with scale = 127 x 16 x max / reference (Q4). */
    reference = !config->open_loop && config->rated_mv ? config->rated_mv : config->max_mv;
    dev->scale = (uint16_t)(reference ? at_most(2032u * config->max_mv / reference, 0xFFFFu) : 0u);
    if (!hal->i2c_transfer) return lost(dev, THR_I2C_NACK);
    return configure(dev);
}

/* The drive as RTP_INPUT: signed, -127..127 (closed loop: 0..127, the chip brakes by itself). */
static int8_t rtp_of(const drv2605l *dev, int16_t drive_q14)
{
    int32_t x = (int32_t)drive_q14 * dev->scale, v = (x + (x < 0 ? -(1 << 17) : 1 << 17)) / (1 << 18); /* rounded */
    if (v > 127) v = 127;
    if (v < (dev->config->open_loop ? -127 : 0)) v = dev->config->open_loop ? -127 : 0;
    return (int8_t)v;
}

void drv2605l_write(drv2605l *dev, int16_t drive_q14)
{
    int8_t rtp;
    if (dev->flags & (DRV2605L_F_MISSING | DRV2605L_F_CALIBRATING)) return;
    rtp = rtp_of(dev, drive_q14);
    if (rtp) {
        dev->flags |= DRV2605L_F_ACTIVE;
        if (dev->flags & DRV2605L_F_STANDBY) { /* wake: standby ignores RTP_INPUT */
            if (write_reg(dev, DRV2605L_REG_MODE, DRV2605L_MODE_RTP) != THR_I2C_OK) return;
            dev->flags &= (uint8_t)~DRV2605L_F_STANDBY;
        }
    }
    if (rtp == dev->rtp && !(dev->flags & DRV2605L_F_RTP_STALE)) return; /* steady: no traffic */
    if (write_reg(dev, DRV2605L_REG_RTP_INPUT, (uint8_t)rtp) != THR_I2C_OK) return;
    dev->rtp = rtp;
    dev->flags &= (uint8_t)~DRV2605L_F_RTP_STALE;
}

/* Standby after standby_after_ms at level 0 (the chip draws microamps instead of milliamps). */
static void standby(drv2605l *dev, uint32_t now_us)
{
    const drv2605l_config *c = dev->config;
    if (dev->flags & DRV2605L_F_ACTIVE) {
        dev->flags &= (uint8_t) ~(DRV2605L_F_ACTIVE | DRV2605L_F_IDLE_KNOWN);
        return;
    }
    if ((dev->flags & DRV2605L_F_STANDBY) || c->standby_after_ms == 0u || dev->rtp != 0) return;
    if (!(dev->flags & DRV2605L_F_IDLE_KNOWN)) {
        dev->idle_since = now_us;
        dev->flags |= DRV2605L_F_IDLE_KNOWN;
    } else if (now_us - dev->idle_since >= (uint32_t)c->standby_after_ms * 1000u &&
               write_reg(dev, DRV2605L_REG_MODE, DRV2605L_STANDBY | DRV2605L_MODE_RTP) == THR_I2C_OK) {
        dev->flags |= DRV2605L_F_STANDBY;
    }
}

/* Over-current and over-temperature, from a STATUS value (the chip clears them when read). */
static void status_faults(drv2605l *dev, uint8_t status)
{
    if (status & DRV2605L_OC_DETECT)
        dev->report = THR_FAULT_OVER_CURRENT;
    else if (status & DRV2605L_OVER_TEMP)
        dev->report = THR_FAULT_OVER_TEMPERATURE;
}

int drv2605l_poll(drv2605l *dev, uint32_t now_us, thr_fault *fault)
{
    dev->now = now_us;
    if (dev->flags & DRV2605L_F_MISSING) {
        if (due(dev->retry_at, now_us) && configure(dev) == THR_I2C_OK) dev->report = 0; /* back: THR_FAULT_CLEAR */
    } else if (!(dev->flags & DRV2605L_F_CALIBRATING)) {
        standby(dev, now_us);
        if (!(dev->flags & (DRV2605L_F_STANDBY | DRV2605L_F_MISSING)) && due(dev->status_at, now_us)) {
            uint8_t status;
            dev->status_at = now_us + DRV2605L_STATUS_MS * 1000u;
            if (read_regs(dev, DRV2605L_REG_STATUS, &status, 1) == THR_I2C_OK) status_faults(dev, status);
        }
    }
    if (dev->report == DRV2605L_REPORT_NONE) return 0;
    *fault = (thr_fault)dev->report;
    dev->report = DRV2605L_REPORT_NONE;
    return 1;
}

thr_status drv2605l_calibrate_start(drv2605l *dev, uint32_t now_us)
{
    dev->now = now_us;
    if (dev->flags & DRV2605L_F_MISSING) return THR_STATUS_NOT_SUPPORTED;
    if (dev->flags & DRV2605L_F_CALIBRATING) return THR_STATUS_BUSY;
    /* RATED_VOLTAGE, OD_CLAMP, FEEDBACK_CONTROL, DRIVE_TIME and AUTO_CAL_TIME are set at init */
    if (write_reg(dev, DRV2605L_REG_MODE, DRV2605L_MODE_AUTO_CAL) != THR_I2C_OK ||
        write_reg(dev, DRV2605L_REG_GO, DRV2605L_GO) != THR_I2C_OK)
        return THR_STATUS_NOT_SUPPORTED;
    /* awake (auto-calibration leaves standby); the idle time starts again afterwards */
    dev->flags = (uint8_t)((dev->flags & ~(DRV2605L_F_STANDBY | DRV2605L_F_IDLE_KNOWN)) | DRV2605L_F_CALIBRATING);
    dev->cal_started = dev->cal_polled = now_us;
    return THR_STATUS_OK;
}

/* drv2605l_calibrate_poll's work, on a result that is handed out only when it returns 1. */
static int calibrate_step(drv2605l *dev, uint32_t now_us, thr_calibration *result)
{
    uint8_t go, status, results[3], period;
    dev->now = now_us;
    result->status = THR_STATUS_INCOMPLETE;
    result->reserved = 0;
    result->resonant_dhz = 0;
    result->impedance_mohm = 0; /* the DRV2605L does not measure it */
    if (!(dev->flags & DRV2605L_F_CALIBRATING)) return 1;
    if (now_us - dev->cal_polled < DRV2605L_CAL_POLL_MS * 1000u) return 0;
    dev->cal_polled = now_us;
    if (read_regs(dev, DRV2605L_REG_GO, &go, 1) != THR_I2C_OK) return 1; /* missing now: INCOMPLETE */
    if (go & DRV2605L_GO) {
        if (now_us - dev->cal_started < DRV2605L_CAL_TIMEOUT_MS * 1000u) return 0;
        write_reg(dev, DRV2605L_REG_GO, 0); /* give up: clearing GO cancels */
    } else if (read_regs(dev, DRV2605L_REG_STATUS, &status, 1) == THR_I2C_OK &&
               read_regs(dev, DRV2605L_REG_A_CAL_COMP, results, 3) == THR_I2C_OK &&
               read_regs(dev, DRV2605L_REG_LRA_PERIOD, &period, 1) == THR_I2C_OK) {
        status_faults(dev, status);
        if (!(status & DRV2605L_DIAG_RESULT)) {
            drv2605l_calibration *cal = &dev->calibration;
            cal->valid = 1;
            cal->a_cal_comp = results[0];
            cal->a_cal_bemf = results[1];
            cal->bemf_gain = results[2] & DRV2605L_BEMF_GAIN_MASK;
            /* f = 1 / (LRA_PERIOD x 98.46 us) -> dhz = 10^9 / (LRA_PERIOD x 9846) */
            cal->resonant_dhz = (uint16_t)(dev->config->kind == THR_ACTUATOR_KIND_LRA && period
                                               ? (1000000000u + (uint32_t)period * 4923u) / ((uint32_t)period * 9846u)
                                               : 0u);
            result->status = THR_STATUS_OK;
            result->resonant_dhz = cal->resonant_dhz;
        }
    }
    if (dev->flags & DRV2605L_F_MISSING) return 1;
    dev->flags &= (uint8_t)~DRV2605L_F_CALIBRATING;
    if (write_reg(dev, DRV2605L_REG_MODE, DRV2605L_MODE_RTP) == THR_I2C_OK)
        dev->flags |= DRV2605L_F_RTP_STALE; /* the level is written again at the next write */
    return 1;
}

int drv2605l_calibrate_poll(drv2605l *dev, uint32_t now_us, thr_calibration *result)
{
    thr_calibration r;
    if (!calibrate_step(dev, now_us, &r)) return 0; /* `result` untouched until done (thr_hal.h) */
    *result = r;
    return 1;
}
