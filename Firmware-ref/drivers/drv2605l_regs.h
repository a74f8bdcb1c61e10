/* DRV2605L registers and bits, named as in TI's datasheet (SLOS854, "Register Map"). Each is
 * defined here once; the driver and its test model both use them. */
#ifndef DRV2605L_REGS_H
#define DRV2605L_REGS_H

/* 0x00 STATUS (read only) */
#define DRV2605L_REG_STATUS         0x00u
#define DRV2605L_DEVICE_ID_SHIFT    5u /* DEVICE_ID[7:5] */
#define DRV2605L_DEVICE_ID_DRV2605  3u
#define DRV2605L_DEVICE_ID_DRV2605L 7u
#define DRV2605L_DIAG_RESULT        0x08u /* 1: calibration or diagnostics failed */
#define DRV2605L_OVER_TEMP          0x02u
#define DRV2605L_OC_DETECT          0x01u
/* 0x01 MODE */
#define DRV2605L_REG_MODE         0x01u
#define DRV2605L_DEV_RESET        0x80u /* self-clearing */
#define DRV2605L_STANDBY          0x40u
#define DRV2605L_MODE_MASK        0x07u /* MODE[2:0] */
#define DRV2605L_MODE_INTERNAL    0x00u
#define DRV2605L_MODE_RTP         0x05u /* real-time playback: RTP_INPUT drives the output */
#define DRV2605L_MODE_DIAGNOSTICS 0x06u
#define DRV2605L_MODE_AUTO_CAL    0x07u
/* 0x02 RTP_INPUT: signed (two's complement) or unsigned, as DATA_FORMAT_RTP says */
#define DRV2605L_REG_RTP_INPUT 0x02u
/* 0x0C GO */
#define DRV2605L_REG_GO 0x0Cu
#define DRV2605L_GO     0x01u /* set to start; the device clears it when done */
/* 0x16-0x19: levels and calibration results */
#define DRV2605L_REG_RATED_VOLTAGE 0x16u
#define DRV2605L_REG_OD_CLAMP      0x17u
#define DRV2605L_REG_A_CAL_COMP    0x18u
#define DRV2605L_REG_A_CAL_BEMF    0x19u
/* 0x1A FEEDBACK_CONTROL */
#define DRV2605L_REG_FEEDBACK_CONTROL 0x1Au
#define DRV2605L_N_ERM_LRA            0x80u /* 1: LRA */
#define DRV2605L_FB_BRAKE_FACTOR_4X   0x30u /* FB_BRAKE_FACTOR[6:4] = 3 */
#define DRV2605L_LOOP_GAIN_MEDIUM     0x04u /* LOOP_GAIN[3:2] = 1 */
#define DRV2605L_BEMF_GAIN_MASK       0x03u /* BEMF_GAIN[1:0], set by auto-calibration */
#define DRV2605L_BEMF_GAIN_DEFAULT    0x02u
/* 0x1B CONTROL1 */
#define DRV2605L_REG_CONTROL1          0x1Bu
#define DRV2605L_STARTUP_BOOST         0x80u
#define DRV2605L_DRIVE_TIME_MASK       0x1Fu /* DRIVE_TIME[4:0]: LRA (x 0.1 + 0.5) ms, ERM (x 0.2 + 1) ms */
#define DRV2605L_DRIVE_TIME_DEFAULT    0x13u /* 19: an ERM's 4.8 ms */
#define DRV2605L_CONTROL1_DEFAULT      (DRV2605L_STARTUP_BOOST | DRV2605L_DRIVE_TIME_DEFAULT) /* 0x93 */
#define DRV2605L_ERM_DRIVE_TIME_US(dt) (1000u + 200u * (dt)) /* Table 24 (CONTROL1), ERM mode */
/* 0x1C CONTROL2, written as its reset value 0xF5: BIDIR_INPUT, BRAKE_STABILIZER, SAMPLE_TIME 3 (300 us,
 * which Equation 5 uses), BLANKING_TIME[1:0] and IDISS_TIME[1:0] 1 (in ERM mode 75 us each, Table 25:
 * the terms of Equation 8) */
#define DRV2605L_REG_CONTROL2     0x1Cu
#define DRV2605L_CONTROL2_DEFAULT 0xF5u
#define DRV2605L_ERM_BLANKING_US  75u
#define DRV2605L_ERM_IDISS_US     75u
/* 0x1D CONTROL3 */
#define DRV2605L_REG_CONTROL3    0x1Du
#define DRV2605L_NG_THRESH_4PCT  0x80u /* NG_THRESH[7:6] = 2 (the default) */
#define DRV2605L_ERM_OPEN_LOOP   0x20u
#define DRV2605L_SUPPLY_COMP_DIS 0x10u
#define DRV2605L_DATA_FORMAT_RTP 0x08u /* 1: unsigned; 0: signed (chosen) */
#define DRV2605L_LRA_DRIVE_MODE  0x04u
#define DRV2605L_N_PWM_ANALOG    0x02u
#define DRV2605L_LRA_OPEN_LOOP   0x01u
/* 0x1E CONTROL4 */
#define DRV2605L_REG_CONTROL4     0x1Eu
#define DRV2605L_AUTO_CAL_TIME_1S 0x30u /* AUTO_CAL_TIME[5:4] = 3: 1000-1200 ms */
/* 0x20 OL_LRA_PERIOD[6:0]: open-loop period = OL_LRA_PERIOD x 98.46 us */
#define DRV2605L_REG_OL_LRA_PERIOD 0x20u
/* 0x22 LRA_PERIOD (read only): measured period = LRA_PERIOD x 98.46 us */
#define DRV2605L_REG_LRA_PERIOD 0x22u
#define DRV2605L_REG_COUNT      0x23u

#endif
