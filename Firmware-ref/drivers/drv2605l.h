/* TI DRV2605L haptic driver, one chip per channel, over thr_hal.i2c_transfer (portable C99, no
 * allocation, no floating point). Registers and bits are named as in TI's datasheet (SLOS854),
 * each defined once, in drv2605l_regs.h.
 *
 * Use (a port with one chip per channel):
 *   static const drv2605l_config cfg0 = { bus 0, 0x5A, THR_ACTUATOR_KIND_LRA, closed loop, 2000 mV, 3000 mV,
 *                                          1700 dHz, standby after 100 ms };
 *   static drv2605l dev0;
 *   drv2605l_init(&dev0, &hal, &cfg0, saved_calibration_or_NULL, now_us);
 *   hal.actuator_write:           drv2605l_write(&dev0, drive_q14);            (every tick; change-only I2C)
 *   hal.actuator_calibrate_start: return drv2605l_calibrate_start(&dev0, now_us);
 *   hal.actuator_calibrate_poll:  return drv2605l_calibrate_poll(&dev0, now_us, result);
 *                                 (on an OK result, keep dev0.calibration for the next init)
 *   main loop, after thr_core_poll:
 *       thr_fault f;
 *       if (drv2605l_poll(&dev0, now_us, &f)) thr_core_channel_fault(&core, 0, f);
 *
 * Faults: any I2C NACK or timeout marks the chip missing (THR_FAULT_ACTUATOR_MISSING, once): no
 * further traffic except an init attempt every DRV2605L_RETRY_MS, which reports THR_FAULT_CLEAR
 * when the chip answers again. STATUS is read every DRV2605L_STATUS_MS while the chip is awake:
 * OC_DETECT and OVER_TEMP are reported once per reading that shows them. */
#ifndef DRV2605L_H
#define DRV2605L_H

#include <stdint.h>

#include "thr_hal.h"
#include "thr_wire.h"

#ifndef DRV2605L_STATUS_MS
#define DRV2605L_STATUS_MS 50u /* STATUS read period while awake */
#endif
#ifndef DRV2605L_RETRY_MS
#define DRV2605L_RETRY_MS 1000u /* init attempt period for a missing chip */
#endif
#ifndef DRV2605L_CAL_TIMEOUT_MS
#define DRV2605L_CAL_TIMEOUT_MS 2000u /* GO still set after this: calibration abandoned */
#endif
#ifndef DRV2605L_CAL_POLL_MS
#define DRV2605L_CAL_POLL_MS 5u /* GO read at most this often while calibrating */
#endif

#define DRV2605L_ADDRESS 0x5Au /* 7-bit I2C address (fixed) */

/* Constant per channel (Zephyr style: const configuration apart from RAM state). */
typedef struct drv2605l_config {
    uint8_t bus;               /* i2c_transfer's bus */
    uint8_t address;           /* 7-bit, DRV2605L_ADDRESS */
    uint8_t kind;              /* thr_actuator_kind: THR_ACTUATOR_KIND_LRA or _ERM */
    uint8_t open_loop;         /* 0: closed loop (LRA auto-resonance, ERM back-EMF); 1: open loop */
    uint16_t rated_mv;         /* continuous rating: LRA RMS, ERM average */
    uint16_t max_mv;           /* overdrive clamp (peak); the core's drive is Q14 of it */
    uint16_t resonant_dhz;     /* LRA resonance in 0.1 Hz (drive time, open-loop period) */
    uint16_t standby_after_ms; /* standby after this long at drive 0 (0 = never) */
} drv2605l_config;

/* Auto-calibration results: kept by the port (flash, say) and handed to drv2605l_init. */
typedef struct drv2605l_calibration {
    uint8_t valid;
    uint8_t a_cal_comp;    /* A_CAL_COMP */
    uint8_t a_cal_bemf;    /* A_CAL_BEMF */
    uint8_t bemf_gain;     /* FEEDBACK_CONTROL's BEMF_GAIN[1:0] */
    uint16_t resonant_dhz; /* from LRA_PERIOD (LRA), 0 for an ERM */
} drv2605l_calibration;

/* RAM state of one chip. */
typedef struct drv2605l {
    const thr_hal *hal;
    const drv2605l_config *config;
    drv2605l_calibration calibration; /* valid after a successful calibration or a restored one */
    uint32_t now;                     /* the last time handed in (for the retry's schedule) */
    uint32_t idle_since;              /* when the drive was last seen at 0 after a non-zero one */
    uint32_t status_at;               /* next STATUS read */
    uint32_t retry_at;                /* next init attempt while missing */
    uint32_t cal_started, cal_polled;
    uint16_t scale; /* RTP per Q14 drive: 127 x 16 x max / full-scale reference (Q4) */
    int8_t rtp;     /* RTP_INPUT as last written */
    uint8_t flags;  /* DRV2605L_F_* */
    uint8_t report; /* fault to report (thr_fault), DRV2605L_REPORT_NONE if none */
} drv2605l;

#define DRV2605L_F_MISSING     0x01u /* an I2C transfer failed: no traffic but the retry */
#define DRV2605L_F_STANDBY     0x02u
#define DRV2605L_F_CALIBRATING 0x04u
#define DRV2605L_F_ACTIVE      0x08u /* a non-zero drive since the last poll */
#define DRV2605L_F_IDLE_KNOWN  0x10u /* idle_since holds the start of the current idle stretch */
#define DRV2605L_F_RTP_STALE   0x20u /* RTP_INPUT must be written again at the next write */
#define DRV2605L_REPORT_NONE   0xFFu

/* Resets the chip, configures it from `config` (and `calibration` when not NULL and valid) and
 * leaves it in RTP mode at level 0. Returns THR_I2C_OK, or the failing transfer's result (the
 * chip is then missing and drv2605l_poll reports it). */
int drv2605l_init(drv2605l *dev, const thr_hal *hal, const drv2605l_config *config,
                  const drv2605l_calibration *calibration, uint32_t now_us);
/* From hal.actuator_write, every tick: the core's drive (Q14 of max_mv, negative = reverse
 * phase). Writes RTP_INPUT only when the quantised level changes; wakes the chip from standby on a
 * non-zero level. Ignored while missing or calibrating. */
void drv2605l_write(drv2605l *dev, int16_t drive_q14);
/* Main loop: standby after the idle time, STATUS reads, retries of a missing chip. Returns 1 with
 * *fault set when the core must be told (thr_core_channel_fault), else 0. */
int drv2605l_poll(drv2605l *dev, uint32_t now_us, thr_fault *fault);
/* Starts auto-calibration (MODE auto-calibration, GO) and returns at once: THR_STATUS_OK, BUSY
 * while one runs, NOT_SUPPORTED when the chip is missing. */
thr_status drv2605l_calibrate_start(drv2605l *dev, uint32_t now_us);
/* 0 while calibrating; 1 when done, `result` filled in (OK with the resonance, or INCOMPLETE when
 * DIAG_RESULT reports a failure, the chip stopped answering or GO never cleared). */
int drv2605l_calibrate_poll(drv2605l *dev, uint32_t now_us, thr_calibration *result);

#endif
