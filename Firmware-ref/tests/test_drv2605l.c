/* The DRV2605L driver against the register model (model_drv2605l.h), alone and on a stub board
 * whose HAL routes actuator_write, i2c_transfer and the calibrate hooks to it: the init sequence,
 * change-only RTP writes, standby and wake, calibration through ACTUATOR_CALIBRATE without
 * stalling the loop, over-current (FAULT, stop with reason fault), a missing chip and the wait after
 * DEV_RESET. */
#include <string.h>

#include "drv2605l.h"
#include "model_drv2605l.h"
#include "test.h"
#include "test_board.h"
#include "test_host.h"
#include "thr_frame.h"
#include "thr_link.h"
#include "thr_messages.h"

/* The stub board first: hal.ctx is its address, which is this struct's. */
typedef struct drv_board {
    stub_board board;
    thr_hal hal; /* the stub's HAL plus the driver's hooks */
    drv2605l dev;
    drv2605l_config config;
    model_drv2605l chip;
    uint32_t writes;  /* actuator_write calls */
    uint32_t spin_us; /* while the chip resets, the clock moves on by this at every reading */
} drv_board;

static drv_board b;

static int i2c(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
               uint32_t rx_length)
{
    drv_board *d = ctx;
    d->chip.now_us = d->board.clock_us;
    return bus == 0u ? model_drv2605l_transfer(&d->chip, address, tx, tx_length, rx, rx_length) : THR_I2C_NACK;
}

static uint32_t now_us(void *ctx)
{
    drv_board *d = ctx;
    if (d->chip.resetting) d->board.clock_us += d->spin_us; /* the driver waits: time passes */
    return d->board.clock_us;
}

static void actuator_write(void *ctx, uint8_t channel, int16_t drive, uint16_t frequency)
{
    drv_board *d = ctx;
    (void)frequency;
    d->board.last_drive[channel] = drive;
    d->writes++;
    if (channel == 0u) drv2605l_write(&d->dev, drive);
}

static thr_status calibrate_start(void *ctx, uint8_t channel)
{
    drv_board *d = ctx;
    return channel == 0u ? drv2605l_calibrate_start(&d->dev, d->board.clock_us) : THR_STATUS_NOT_SUPPORTED;
}

static int calibrate_poll(void *ctx, uint8_t channel, thr_calibration *result)
{
    drv_board *d = ctx;
    (void)channel;
    return drv2605l_calibrate_poll(&d->dev, d->board.clock_us, result);
}

static const drv2605l_config lra_closed = { 0, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_LRA, 0, 2000, 3000, 1700, 100 };

/* A stub board (1 kHz, one LRA channel 2000/3000 mV at 170 Hz) with the driver on channel 0. */
static int setup(const drv2605l_config *config)
{
    stub_board_init(&b.board);
    b.hal = b.board.hal;
    b.hal.now_us = now_us;
    b.spin_us = 1;
    b.hal.actuator_write = actuator_write;
    b.hal.i2c_transfer = i2c;
    b.hal.actuator_calibrate_start = calibrate_start;
    b.hal.actuator_calibrate_poll = calibrate_poll;
    b.config = *config;
    b.writes = 0;
    b.board.clock_us = 1000;
    model_drv2605l_reset(&b.chip);
    CHECK_EQ(thr_core_init(&b.board.core, &b.hal, &b.board.config, b.board.memory, sizeof b.board.memory),
             THR_STATUS_OK);
    return drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us);
}

/* ---- a scripted host (tests/test_host.h) ---- */
static test_host host;

/* One millisecond of the port's main loop: the core, then the driver's poll and its faults. */
static void loop_ms(void)
{
    thr_fault fault;
    thr_core_poll(&b.board.core);
    if (drv2605l_poll(&b.dev, b.board.clock_us, &fault)) thr_core_channel_fault(&b.board.core, 0, fault);
    test_host_collect(&host);
    if (host.ack) test_host_send(&host, 0, 0, THR_MSG_ACK, 0, 0, 0); /* keeps the board's window open */
    b.board.clock_us += 1000u;
}

static void run_ms(uint32_t ms)
{
    while (ms--) loop_ms();
}

static uint32_t host_nonce;

/* A HELLO with a nonce of its own each time: every call opens a new host session. */
static void connect_host(void)
{
    test_host_attach(&host, &b.board);
    test_host_hello(&host, ++host_nonce, 0);
    loop_ms();
    test_host_connected(&host);
}

static void calibrate_command(uint16_t tag, uint8_t channel)
{
    uint8_t p[THR_ACTUATOR_CALIBRATE_SIZE];
    thr_put16(p + THR_ACTUATOR_CALIBRATE_TAG_AT, tag);
    p[THR_ACTUATOR_CALIBRATE_CHANNEL_AT] = channel;
    test_host_send(&host, 1, ++host.seq, THR_MSG_ACTUATOR_CALIBRATE, p, THR_ACTUATOR_CALIBRATE_SIZE, 0);
}

/* A 2 s continuous event at full intensity (the link tests' timeline), playing from now. */
static void play_continuous(void)
{
    static const uint8_t body[] = { 0xD0, 0x0F, 0x01, 0x0D, 0xFF, 0x80, 0x00, 0x00, 0xD0, 0x0F };
    uint8_t tl[64], handle;
    uint32_t length = make_timeline(tl, 0, body, sizeof body);
    CHECK_EQ(thr_store_load(&b.board.core, tl, length, &handle), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&b.board.core, 0, handle, b.board.core.next_tick, 0), THR_STATUS_OK);
}

/* ---- tests ---- */

static void init_sequence(void)
{
    drv2605l_config erm = { 0, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_ERM, 1, 3000, 3300, 0, 0 };
    drv2605l_config lra_open = lra_closed;
    drv2605l_calibration saved = { 1, 0x0A, 0x7B, 1, 1721 };
    const uint8_t *r = b.chip.reg;
    CHECK_EQ(setup(&lra_closed), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_RATED_VOLTAGE], 84); /* the levels: drv2605l_levels_per_mode */
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 141);
    CHECK_EQ(r[DRV2605L_REG_FEEDBACK_CONTROL], 0xB6); /* LRA, brake 4x, medium loop gain, default BEMF gain */
    CHECK_EQ(r[DRV2605L_REG_CONTROL1], 0x80 | 24);    /* startup boost, drive time 2.9 ms ~ half of 5.9 ms */
    CHECK_EQ(r[DRV2605L_REG_CONTROL3], 0x80);         /* closed loop, signed RTP data */
    CHECK_EQ(r[DRV2605L_REG_CONTROL4], 0x30);         /* auto-calibration 1000-1200 ms */
    CHECK_EQ(r[DRV2605L_REG_MODE], DRV2605L_MODE_RTP);
    CHECK_EQ(r[DRV2605L_REG_RTP_INPUT], 0);
    CHECK_EQ(b.chip.log[0].reg, DRV2605L_REG_MODE); /* first a reset */
    CHECK_EQ(b.chip.log[0].value, DRV2605L_DEV_RESET);
    CHECK_EQ(setup(&erm), THR_I2C_OK); /* ERM, open loop */
    CHECK_EQ(r[DRV2605L_REG_FEEDBACK_CONTROL], 0x36);
    CHECK_EQ(r[DRV2605L_REG_CONTROL3], 0x80 | DRV2605L_ERM_OPEN_LOOP);
    /* LRA, open loop: OL_LRA_PERIOD = 1 / (170 Hz x 98.46 us) = 59.7 -> 60 */
    lra_open.open_loop = 1;
    CHECK_EQ(setup(&lra_open), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_OL_LRA_PERIOD], 60);
    CHECK_EQ(r[DRV2605L_REG_CONTROL3], 0x80 | DRV2605L_LRA_OPEN_LOOP);
    /* a kept calibration is written back */
    CHECK_EQ(setup(&lra_closed), THR_I2C_OK);
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, &saved, b.board.clock_us), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_A_CAL_COMP], 0x0A);
    CHECK_EQ(r[DRV2605L_REG_A_CAL_BEMF], 0x7B);
    CHECK_EQ(r[DRV2605L_REG_FEEDBACK_CONTROL], 0xB5);
}

/* At 65,535 mV both levels are 255, closed and open loop: the arithmetic does not wrap. */
static void saturates(const drv2605l_config *config)
{
    drv2605l_config c = *config;
    c.rated_mv = c.max_mv = 65535;
    for (c.open_loop = 0; c.open_loop < 2u; c.open_loop++) {
        CHECK_EQ(setup(&c), THR_I2C_OK);
        CHECK_EQ(b.chip.reg[DRV2605L_REG_RATED_VOLTAGE], 255);
        CHECK_EQ(b.chip.reg[DRV2605L_REG_OD_CLAMP], 255);
    }
}

/* Whether the driver wrote CONTROL2 (within a block write or alone) since the chip's log was cleared. */
static int control2_written(void)
{
    uint32_t i;
    for (i = 0; i < b.chip.log_count && i < MODEL_LOG; i++) {
        const model_i2c_op *op = &b.chip.log[i];
        if (!op->read && op->reg <= DRV2605L_REG_CONTROL2 && (uint32_t)op->reg + op->length > DRV2605L_REG_CONTROL2)
            return 1;
    }
    return 0;
}

/* RATED_VOLTAGE and OD_CLAMP in each mode, worked by hand from TI's DRV2605L datasheet (SLOS854D,
 * 8.5.2.1 and 8.5.2.2, Equations 4 to 9), rounded to the nearest step. */
static void levels_per_mode(void)
{
    drv2605l_config c = lra_closed; /* LRA, 2000 mV rated, 3000 mV max, 170 Hz */
    const uint8_t *r = b.chip.reg;
    CHECK_EQ(setup(&c), THR_I2C_OK);
    /* Eq. 5: 2000 mV x sqrt(1 - (4 x 300 us + 300 us) x 170 Hz) / 20.58 mV = 2000 x 0.8631 / 20.58 = 83.88 */
    CHECK_EQ(r[DRV2605L_REG_RATED_VOLTAGE], 84);
    /* Eq. 9: 3000 mV / 21.22 mV = 141.38 (the DRV2605's 21.96 mV would give 137) */
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 141);
    /* Eq. 7, open loop: 3000 / (21.32 x sqrt(1 - 170 Hz x 800 us)) = 3000 / (21.32 x 0.9295) = 151.38 */
    c.open_loop = 1;
    CHECK_EQ(setup(&c), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 151);
    CHECK_EQ(r[DRV2605L_REG_RATED_VOLTAGE], 84); /* ignored in open loop, read by auto-calibration */
    /* an ERM, 3000 mV rated, 3300 mV max; Eq. 4: 3000 / 21.18 = 141.64 in either loop */
    c.kind = THR_ACTUATOR_KIND_ERM;
    c.rated_mv = 3000;
    c.max_mv = 3300;
    c.resonant_dhz = 0;
    CHECK_EQ(setup(&c), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_RATED_VOLTAGE], 142);
    /* Eq. 6, open loop: 3300 / 21.59 = 152.85 (21.32 mV would give 155) */
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 153);
    /* Eq. 8, closed loop, with the times the driver writes: DRIVE_TIME 19 (CONTROL1 0x93: an ERM's
     * 19 x 0.2 + 1 = 4.8 ms), IDISS_TIME and BLANKING_TIME 1 (CONTROL2 0xF5: 75 us each):
     * 3300 / (21.64 x (4.8 - 0.3) / (4.8 + 0.075 + 0.075)) = 3300 / 19.673 = 167.74 */
    c.open_loop = 0;
    CHECK_EQ(setup(&c), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_CONTROL1], 0x93);
    CHECK_EQ(r[DRV2605L_REG_CONTROL2], 0xF5);
    CHECK(control2_written()); /* not left to the reset value (SLOS854C's Table 25 gave 2 for both) */
    CHECK_EQ(r[DRV2605L_REG_RATED_VOLTAGE], 142);
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 168);
    c.max_mv = 10; /* 10 / 19.673 = 0.51 */
    CHECK_EQ(setup(&c), THR_I2C_OK);
    CHECK_EQ(r[DRV2605L_REG_OD_CLAMP], 1);
    /* beyond full scale: 255 in every mode, no 32-bit overflow on the way */
    saturates(&c);
    saturates(&lra_closed);
}

static void change_only_rtp(void)
{
    uint32_t before, i;
    setup(&lra_closed);
    /* the level scale: rated drive (2000 of 3000 mV) is full scale in closed loop */
    drv2605l_write(&b.dev, 10922);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RTP_INPUT], 127);
    drv2605l_write(&b.dev, 5461);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RTP_INPUT], 63);
    drv2605l_write(&b.dev, -4000); /* closed loop: the chip brakes by itself */
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RTP_INPUT], 0);
    before = b.chip.transactions;
    for (i = 0; i < 100u; i++) drv2605l_write(&b.dev, 0);
    CHECK_EQ(b.chip.transactions, before);
    /* through the core: idle, then a 2 s steady event */
    setup(&lra_closed);
    run_ms(50);
    before = b.chip.rtp_writes;
    CHECK_EQ(before, 1); /* the init's 0 */
    play_continuous();
    run_ms(1000);
    printf("drv2605l: %u actuator writes over 1 s of a steady event, %u RTP_INPUT writes, %u I2C transactions\n",
           (unsigned)b.writes, (unsigned)(b.chip.rtp_writes - before), (unsigned)b.chip.transactions);
    CHECK(b.writes >= 1000u);
    CHECK(b.chip.rtp_writes - before <= 8u); /* the attack's few levels, then nothing */
    CHECK(model_drv2605l_output(&b.chip) > 100);
    /* the rest is STATUS reads every 50 ms, not per tick */
    CHECK(b.chip.transactions < 60u);
}

static void standby_and_wake(void)
{
    setup(&lra_closed);
    run_ms(60);
    CHECK(!(b.chip.reg[DRV2605L_REG_MODE] & DRV2605L_STANDBY));
    run_ms(60); /* 100 ms at 0: standby */
    CHECK(b.chip.reg[DRV2605L_REG_MODE] & DRV2605L_STANDBY);
    CHECK(b.dev.flags & DRV2605L_F_STANDBY);
    {
        uint32_t before = b.chip.transactions;
        run_ms(500); /* asleep: no traffic at all (no STATUS reads either) */
        CHECK_EQ(b.chip.transactions, before);
    }
    play_continuous();
    run_ms(5);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP); /* woken by the first non-zero level */
    CHECK(model_drv2605l_output(&b.chip) > 0);
    CHECK_EQ(b.chip.rtp_in_standby, 0);
    /* the event ends (2 s): braking, 0, and standby again after 100 ms */
    run_ms(2200);
    CHECK(b.chip.reg[DRV2605L_REG_MODE] & DRV2605L_STANDBY);
    CHECK_EQ(model_drv2605l_output(&b.chip), 0);
}

#if !THR_ACTUATOR_CALIBRATION
/* Built without the option: the hooks are not used, ACTUATOR_CALIBRATE answers NOT_SUPPORTED at
 * once with the configured resonance, and the chip goes on playing. */
static void calibration(void)
{
    const test_received *r;
    setup(&lra_closed);
    connect_host();
    host.got_count = 0;
    calibrate_command(7, 0);
    loop_ms();
    CHECK(!(b.dev.flags & DRV2605L_F_CALIBRATING));
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP);
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r != 0);
    if (r) {
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_TAG_AT), 7);
        CHECK_EQ(r->payload[THR_CALIBRATION_RESULT_STATUS_AT], THR_STATUS_NOT_SUPPORTED);
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_RESONANT_DHZ_AT), 1700);
    }
    host.got_count = 0;
    calibrate_command(8, 3);
    loop_ms();
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r && r->payload[THR_CALIBRATION_RESULT_STATUS_AT] == THR_STATUS_BAD_ARGUMENT);
}
#else
static int never_done(void *ctx, uint8_t channel, thr_calibration *result)
{
    (void)ctx;
    (void)channel;
    (void)result;
    return 0;
}

/* A driver that never finishes: the core answers INCOMPLETE after THR_CALIBRATION_TIMEOUT_MS and
 * polls no more; meanwhile the reply's send slot is kept out of the receive window. */
static void calibration_timeout(void)
{
    const test_received *r;
    uint32_t ms;
    uint8_t window;
    setup(&lra_closed);
    b.hal.actuator_calibrate_poll = never_done;
    connect_host();
    window = thr_link_window(&b.board.core);
    host.got_count = 0;
    calibrate_command(5, 0);
    loop_ms();
    CHECK_EQ(b.board.core.calibrating, 1);
    CHECK_EQ(thr_link_window(&b.board.core), window - 1);
    for (ms = 1; ms < THR_CALIBRATION_TIMEOUT_MS + 10u && !test_host_find(&host, THR_MSG_CALIBRATION_RESULT); ms++)
        loop_ms();
    CHECK(ms >= THR_CALIBRATION_TIMEOUT_MS && ms <= THR_CALIBRATION_TIMEOUT_MS + 2u);
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r != 0);
    if (r) {
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_TAG_AT), 5);
        CHECK_EQ(r->payload[THR_CALIBRATION_RESULT_STATUS_AT], THR_STATUS_INCOMPLETE);
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_RESONANT_DHZ_AT), 0);
    }
    CHECK_EQ(b.board.core.calibrating, 0);
    CHECK_EQ(b.board.core.actuator[0].resonant_dhz, 1700); /* unchanged */
    run_ms(20);
    CHECK_EQ(thr_link_window(&b.board.core), window);
}

static void calibration(void)
{
    const test_received *r;
    uint32_t ms, traces;
    setup(&lra_closed);
    connect_host();
    host.got_count = 0;
    calibrate_command(7, 0);
    loop_ms();
    CHECK(b.dev.flags & DRV2605L_F_CALIBRATING);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_AUTO_CAL);
    CHECK(test_host_find(&host, THR_MSG_CALIBRATION_RESULT) == 0); /* not yet: the loop goes on */
    calibrate_command(8, 0);                                       /* a second one meanwhile: BUSY */
    loop_ms();
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r && thr_get16(r->payload + THR_CALIBRATION_RESULT_TAG_AT) == 8u &&
          r->payload[THR_CALIBRATION_RESULT_STATUS_AT] == THR_STATUS_BUSY);
    host.got_count = 0;
    traces = b.board.trace_count;
    for (ms = 0; ms < 1500u && !test_host_find(&host, THR_MSG_CALIBRATION_RESULT); ms++) loop_ms();
    /* every millisecond rendered its tick while the chip calibrated (about 1.1 s) */
    CHECK_EQ(b.board.trace_count - traces, ms);
    CHECK(ms >= 1100u && ms < 1200u);
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r != 0);
    if (r) {
        /* 59 x 98.46 us = 5.809 ms: 172.1 Hz */
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_TAG_AT), 7);
        CHECK_EQ(r->payload[THR_CALIBRATION_RESULT_STATUS_AT], THR_STATUS_OK);
        CHECK_EQ(thr_get16(r->payload + THR_CALIBRATION_RESULT_RESONANT_DHZ_AT), 1721);
    }
    CHECK_EQ(b.board.core.actuator[0].resonant_dhz, 1721); /* the carrier follows */
    CHECK(b.dev.calibration.valid);
    CHECK_EQ(b.dev.calibration.a_cal_comp, 0x0A);
    CHECK_EQ(b.dev.calibration.a_cal_bemf, 0x7B);
    CHECK_EQ(b.dev.calibration.bemf_gain, 1);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP); /* back to playing */
    /* a failed calibration (DIAG_RESULT) is INCOMPLETE; a channel without a chip BAD_ARGUMENT */
    b.chip.cal_fails = 1;
    host.got_count = 0;
    calibrate_command(9, 0);
    for (ms = 0; ms < 1500u && !test_host_find(&host, THR_MSG_CALIBRATION_RESULT); ms++) loop_ms();
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r && r->payload[THR_CALIBRATION_RESULT_STATUS_AT] == THR_STATUS_INCOMPLETE);
    host.got_count = 0;
    calibrate_command(10, 3);
    loop_ms();
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r && r->payload[THR_CALIBRATION_RESULT_STATUS_AT] == THR_STATUS_BAD_ARGUMENT);
    /* a chip that stops answering mid-way: INCOMPLETE at once, and the fault */
    b.chip.cal_fails = 0;
    host.got_count = 0;
    calibrate_command(11, 0);
    run_ms(10);
    b.chip.timeout = 1;
    run_ms(10);
    r = test_host_find(&host, THR_MSG_CALIBRATION_RESULT);
    CHECK(r && r->payload[THR_CALIBRATION_RESULT_STATUS_AT] == THR_STATUS_INCOMPLETE);
    r = test_host_find(&host, THR_MSG_FAULT);
    CHECK(r && r->payload[THR_FAULT_FAULT_AT] == THR_FAULT_ACTUATOR_MISSING);
}
#endif

static void over_current(void)
{
    const test_received *fault, *stopped;
    unsigned i;
    setup(&lra_closed);
    connect_host();
    play_continuous();
    run_ms(200);
    CHECK(model_drv2605l_output(&b.chip) > 100);
    host.got_count = 0;
    b.chip.reg[DRV2605L_REG_STATUS] |= DRV2605L_OC_DETECT;
    run_ms(60); /* the next STATUS read, within 50 ms */
    fault = test_host_find(&host, THR_MSG_FAULT);
    stopped = test_host_find(&host, THR_MSG_ENGINE_STOPPED);
    CHECK(fault && fault->payload[THR_FAULT_FAULT_AT] == THR_FAULT_OVER_CURRENT &&
          fault->payload[THR_FAULT_CHANNEL_AT] == 0);
    CHECK(stopped && stopped->payload[THR_ENGINE_STOPPED_REASON_AT] == THR_STOP_REASON_FAULT);
    for (i = 0; fault && stopped && i < host.got_count; i++) {
        if (&host.got[i] == fault) CHECK(stopped > fault); /* FAULT first, then ENGINE_STOPPED */
    }
    CHECK_EQ(b.board.core.player[0].state, THR_PLAYER_IDLE);
    CHECK_EQ(b.board.last_drive[0], 0);
    CHECK_EQ(model_drv2605l_output(&b.chip), 0);
    CHECK_EQ(b.board.core.engine_running, 0);
}

static void missing_chip(int timeout)
{
    const test_received *r;
    uint32_t before;
    stub_board_init(&b.board);
    model_drv2605l_reset(&b.chip);
    b.chip.nack = (uint8_t)!timeout;
    b.chip.timeout = (uint8_t)timeout;
    setup(&lra_closed); /* a chip that answers, reset */
    b.chip.nack = (uint8_t)!timeout;
    b.chip.timeout = (uint8_t)timeout;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), timeout ? THR_I2C_TIMEOUT : THR_I2C_NACK);
    connect_host(); /* INFO is answered all the same */
    run_ms(5);
    r = test_host_find(&host, THR_MSG_FAULT);
    CHECK(r && r->payload[THR_FAULT_FAULT_AT] == THR_FAULT_ACTUATOR_MISSING && r->payload[THR_FAULT_CHANNEL_AT] == 0);
    CHECK_EQ(b.board.core.faulted, 1);
    /* the next host (thrum info after thrum play) is told as well */
    connect_host();
    run_ms(5);
    r = test_host_find(&host, THR_MSG_FAULT);
    CHECK(r && r->payload[THR_FAULT_FAULT_AT] == THR_FAULT_ACTUATOR_MISSING && r->payload[THR_FAULT_CHANNEL_AT] == 0);
    /* playing: the channel stays muted, no traffic but one retry a second */
    before = b.chip.transactions;
    play_continuous();
    run_ms(1500);
    CHECK(b.chip.transactions - before <= 2u);
    CHECK_EQ(trace_intensity_at(&b.board, b.board.clock_us / 1000u - 100u), 0);
    CHECK_EQ(test_host_find(&host, THR_MSG_ENGINE_STOPPED) == 0, 1); /* the rest of the board plays on */
    /* the chip is back: the next retry finds it, the channel plays again */
    b.chip.nack = b.chip.timeout = 0;
    run_ms(1100);
    CHECK_EQ(b.board.core.faulted, 0);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE] & DRV2605L_MODE_MASK, DRV2605L_MODE_RTP);
    play_continuous();
    run_ms(10);
    CHECK(model_drv2605l_output(&b.chip) > 0);
}

static void missing_nack(void)
{
    missing_chip(0);
}

static void missing_timeout(void)
{
    missing_chip(1);
}

/* Init reads DEVICE_ID (STATUS bits 7:5) after the reset: a DRV2605L (7) or a DRV2605 (3) is
 * driven; anything else at the address (a DRV2604L, 6) is treated as a missing chip: FAULT
 * actuator_missing, the channel muted, the slow retry, and back once the right chip answers. */
static void device_id(void)
{
    const test_received *r;
    setup(&lra_closed);
    b.chip.device_id = DRV2605L_DEVICE_ID_DRV2605;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_OK);
    CHECK(!(b.dev.flags & DRV2605L_F_MISSING));
    b.chip.device_id = 6; /* DRV2604L */
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_NACK);
    CHECK(b.dev.flags & DRV2605L_F_MISSING);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RATED_VOLTAGE], 0x3E); /* nothing configured on a foreign chip */
    connect_host();
    run_ms(5);
    r = test_host_find(&host, THR_MSG_FAULT);
    CHECK(r && r->payload[THR_FAULT_FAULT_AT] == THR_FAULT_ACTUATOR_MISSING && r->payload[THR_FAULT_CHANNEL_AT] == 0);
    CHECK_EQ(b.board.core.faulted, 1);
    run_ms(1100); /* the retry reads the same wrong ID: still missing, no second report */
    CHECK_EQ(b.board.core.faulted, 1);
    b.chip.device_id = DRV2605L_DEVICE_ID_DRV2605L;
    run_ms(1100);
    CHECK_EQ(b.board.core.faulted, 0);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RATED_VOLTAGE], 84);
}

/* DEV_RESET has no stated completion time (SLOS854D): no traffic for 2 ms after it, then MODE is read
 * until the bit clears, a NACK meaning "not yet"; a chip still silent after 10 ms is missing. */
static void reset_wait(void)
{
    uint32_t start;
    setup(&lra_closed);
    b.chip.reset_nack_us = 1500; /* silent for 1.5 ms, then DEV_RESET reads 1 until 4 ms */
    b.chip.reset_busy_us = 4000;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_OK);
    CHECK(b.chip.reset_first_us - b.chip.reset_at >= 2000u); /* quiet for 2 ms */
    CHECK(b.chip.reset_polls > 0u);                          /* read while DEV_RESET was still set */
    CHECK(!(b.dev.flags & DRV2605L_F_MISSING));
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RATED_VOLTAGE], 84);
    /* NACKs for 8 ms: not yet, not missing */
    b.chip.reset_nack_us = 8000;
    b.chip.reset_busy_us = 0;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_OK);
    CHECK(b.chip.reset_polls > 0u);
    CHECK(!(b.dev.flags & DRV2605L_F_MISSING));
    CHECK_EQ(b.chip.reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP);
    /* silent for 20 ms: missing after 10 (and not much later) */
    b.chip.reset_nack_us = 20000;
    start = b.board.clock_us;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_NACK);
    CHECK(b.dev.flags & DRV2605L_F_MISSING);
    CHECK(b.board.clock_us - start >= 10000u && b.board.clock_us - start < 10100u);
    CHECK_EQ(b.chip.reg[DRV2605L_REG_RATED_VOLTAGE], 0x3E); /* nothing configured */
    /* DEV_RESET bit never clears: missing as well */
    b.chip.reset_nack_us = 0;
    b.chip.reset_busy_us = 50000;
    b.board.clock_us += 100000u;
    CHECK_EQ(drv2605l_init(&b.dev, &b.hal, &b.config, 0, b.board.clock_us), THR_I2C_TIMEOUT);
    CHECK(b.dev.flags & DRV2605L_F_MISSING);
}

void drv2605l_tests(void)
{
    run_test("drv2605l init sequence", init_sequence);
    run_test("drv2605l levels per mode (SLOS854D Equations 4-9)", levels_per_mode);
    run_test("drv2605l change-only RTP", change_only_rtp);
    run_test("drv2605l standby and wake", standby_and_wake);
    run_test("drv2605l calibration", calibration);
#if THR_ACTUATOR_CALIBRATION
    run_test("drv2605l calibration timeout", calibration_timeout);
#endif
    run_test("drv2605l over-current", over_current);
    run_test("drv2605l missing chip (NACK)", missing_nack);
    run_test("drv2605l missing chip (timeout)", missing_timeout);
    run_test("drv2605l device ID", device_id);
    run_test("drv2605l wait after DEV_RESET", reset_wait);
}
