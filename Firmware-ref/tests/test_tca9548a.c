/* The TCA9548A mux driver with one DRV2605L driver per port, against a mux model with a DRV2605L
 * model on each port (model_tca9548a.h): every channel its own init and rating, levels reaching
 * the right chip with a select only when the port changes, the bytes a level change costs (the I2C
 * budget of drivers/tca9548a/README.md), a missing chip faulting its channel only, a missing mux
 * faulting all, and a calibration per channel. */
#include <stdio.h>
#include <string.h>

#include "drv2605l.h"
#include "model_tca9548a.h"
#include "stub_board.h"
#include "tca9548a.h"
#include "test.h"
#include "test_board.h"

#define CHANNELS 4u
#define MUX_AT   0x71u /* A0 high: not the first address, so the driver must use the one it is given */

typedef struct mux_board {
    thr_hal upstream;   /* the MCU's bus: the mux model */
    thr_hal channels;   /* the mux's downstream HAL, bus n = port n */
    uint32_t clock_us;  /* moves on by 10 us at every reading: the driver's waits end */
    model_tca9548a bus; /* the mux and the chips behind it */
    model_drv2605l chip[CHANNELS];
    tca9548a mux;
    drv2605l dev[CHANNELS];
    drv2605l_config config[CHANNELS];
} mux_board;

static mux_board m;

static uint32_t now_us(void *ctx)
{
    mux_board *board = ctx;
    board->clock_us += 10u;
    return board->clock_us;
}

static int i2c(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
               uint32_t rx_length)
{
    mux_board *board = ctx;
    if (bus != 0u) return THR_I2C_NACK;
    return model_tca9548a_transfer(&board->bus, board->clock_us, address, tx, tx_length, rx, rx_length);
}

/* Four channels, each rated differently: three LRAs (170, 205, 150 Hz) and an open-loop ERM. */
static const drv2605l_config ratings[CHANNELS] = {
    { 0, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_LRA, 0, 2000, 3000, 1700, 100 },
    { 1, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_LRA, 0, 1800, 2500, 2050, 100 },
    { 2, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_ERM, 1, 3000, 3300, 0, 100 },
    { 3, DRV2605L_ADDRESS, THR_ACTUATOR_KIND_LRA, 0, 2500, 3500, 1500, 100 },
};

/* The board with a chip on each port in `ports` (bit n: port n), powered up; the mux not yet started. */
static void power_up(unsigned ports)
{
    unsigned n;
    memset(&m, 0, sizeof m);
    m.upstream.ctx = &m;
    m.upstream.now_us = now_us;
    m.upstream.i2c_transfer = i2c;
    m.clock_us = 1000;
    model_tca9548a_reset(&m.bus, MUX_AT);
    for (n = 0; n < CHANNELS; n++) {
        model_drv2605l_reset(&m.chip[n]);
        m.chip[n].cal_lra_period = (uint8_t)(56u + 3u * n); /* each LRA resonates elsewhere */
        if (ports & (1u << n)) m.bus.chips[n] = &m.chip[n];
        m.config[n] = ratings[n];
    }
}

/* The mux, then every channel's chip through it; the result of each channel's init in `results`. */
static int start(int results[CHANNELS])
{
    unsigned n;
    int r = tca9548a_init(&m.mux, &m.upstream, 0, MUX_AT);
    tca9548a_downstream_hal(&m.mux, &m.channels);
    for (n = 0; n < CHANNELS; n++) results[n] = drv2605l_init(&m.dev[n], &m.channels, &m.config[n], 0, m.clock_us);
    return r;
}

/* One port's chip did not see another port's traffic: what it logged is only its own init. */
static void each_channel_its_own_init(void)
{
    static const uint8_t rated[CHANNELS] = {
        84,  /* 2000 mV x sqrt(1 - 1.5 ms x 170 Hz) / 20.58 mV = 83.9 */
        73,  /* 1800 x sqrt(1 - 1.5 ms x 205 Hz) / 20.58 = 72.8 */
        142, /* ERM: 3000 / 21.18 = 141.6 */
        107, /* 2500 x sqrt(1 - 1.5 ms x 150 Hz) / 20.58 = 106.9 */
    };
    /* closed-loop LRAs: max / 21.22 mV (SLOS854D Equation 9); the open-loop ERM: 3300 / 21.59 (Equation 6) */
    static const uint8_t clamp[CHANNELS] = { 141, 118, 153, 165 };
    int results[CHANNELS];
    unsigned n;
    power_up(0xFu);
    CHECK_EQ(start(results), THR_I2C_OK);
    for (n = 0; n < CHANNELS; n++) {
        CHECK_EQ(results[n], THR_I2C_OK);
        CHECK_EQ(m.chip[n].log[0].reg, DRV2605L_REG_MODE); /* its own reset first */
        CHECK_EQ(m.chip[n].log[0].value, DRV2605L_DEV_RESET);
        CHECK_EQ(m.chip[n].reg[DRV2605L_REG_RATED_VOLTAGE], rated[n]);
        CHECK_EQ(m.chip[n].reg[DRV2605L_REG_OD_CLAMP], clamp[n]);
        CHECK_EQ(m.chip[n].reg[DRV2605L_REG_MODE], DRV2605L_MODE_RTP);
        CHECK_EQ(m.chip[n].transactions, m.chip[0].transactions); /* one init each, not four */
    }
    CHECK_EQ(m.chip[2].reg[DRV2605L_REG_CONTROL3], 0x80 | DRV2605L_ERM_OPEN_LOOP);
    CHECK_EQ(m.chip[0].reg[DRV2605L_REG_FEEDBACK_CONTROL] & DRV2605L_N_ERM_LRA, DRV2605L_N_ERM_LRA);
    CHECK_EQ(m.chip[2].reg[DRV2605L_REG_FEEDBACK_CONTROL] & DRV2605L_N_ERM_LRA, 0);
    /* none at start-up, then one select per chip for its whole init: only when the port changed */
    CHECK_EQ(m.bus.control_writes, 1u + CHANNELS);
    CHECK_EQ(m.mux.selects, 1u + CHANNELS);
    CHECK_EQ(m.bus.control, TCA9548A_CONTROL_PORT(3));
}

/* Writes `levels` (Q14 drives) to the channels in order, as the core's tick does. */
static void tick(const int16_t levels[CHANNELS])
{
    unsigned n;
    for (n = 0; n < CHANNELS; n++) drv2605l_write(&m.dev[n], levels[n]);
}

static void levels_to_the_right_chip(void)
{
    static const int16_t levels[CHANNELS] = { 10922, 0, 8000, 2730 };
    static const int16_t steady[CHANNELS] = { 10922, 0, 8000, 2730 };
    static const int16_t ramp_one[CHANNELS] = { 10922, 0, 8000, 4000 };
    static const int16_t all_change[CHANNELS] = { 5461, 3000, 4000, 7000 };
    static const int16_t none[CHANNELS] = { 0, 0, 0, 0 };
    int results[CHANNELS];
    uint32_t bytes, selects, transactions;
    unsigned n;
    power_up(0xFu);
    start(results);
    tick(levels);
    /* the scale is each channel's own: rated = 127 in closed loop (2000 of 3000 mV: 10922), the ERM in
     * open loop against its clamp (8000 / 16384 x 127 = 62), the 2500 of 3500 LRA at 2730 -> 30 */
    CHECK_EQ(model_drv2605l_output(&m.chip[0]), 127);
    CHECK_EQ(model_drv2605l_output(&m.chip[1]), 0);
    CHECK_EQ(model_drv2605l_output(&m.chip[2]), 62);
    CHECK_EQ(model_drv2605l_output(&m.chip[3]), 30);
    CHECK_EQ(m.chip[1].rtp_writes, 1u); /* only the init's 0: its level did not change */
    /* steady: no traffic at all */
    transactions = m.bus.transactions;
    for (n = 0; n < 50u; n++) tick(steady);
    CHECK_EQ(m.bus.transactions, transactions);
    /* one channel changing every tick: its port stays selected, one RTP write (3 bytes) a change */
    tick(ramp_one);
    selects = m.mux.selects;
    bytes = m.bus.bytes;
    for (n = 0; n < 10u; n++) {
        int16_t ramp[CHANNELS] = { 10922, 0, 8000, 0 };
        ramp[3] = (int16_t)(4200 + 200 * (int)n); /* 2.2 RTP steps apart */
        tick(ramp);
    }
    CHECK_EQ(m.mux.selects, selects);
    CHECK_EQ(m.bus.bytes - bytes, 10u * 3u);
    /* every channel changing: a select (2 bytes) and an RTP write (3 bytes) each, the budget's 5 bytes */
    bytes = m.bus.bytes;
    selects = m.mux.selects;
    tick(all_change);
    CHECK_EQ(m.bus.bytes - bytes, CHANNELS * 5u);
    CHECK_EQ(m.mux.selects - selects, CHANNELS);
    for (n = 0; n < CHANNELS; n++) CHECK(model_drv2605l_output(&m.chip[n]) > 0);
    CHECK_EQ(model_drv2605l_output(&m.chip[0]), 63);
    tick(none);
    for (n = 0; n < CHANNELS; n++) CHECK_EQ(model_drv2605l_output(&m.chip[n]), 0);
    for (n = 0; n < CHANNELS; n++) CHECK_EQ(m.chip[n].rtp_in_standby, 0u);
}

static int poll_fault(unsigned channel, thr_fault *fault)
{
    return drv2605l_poll(&m.dev[channel], m.clock_us, fault);
}

/* Nothing on port 2: channel 2 alone is missing, reported once; the others play. The chip plugged in
 * later is found by the retry and reported back (THR_FAULT_CLEAR). */
static void missing_chip_faults_its_channel(void)
{
    static const int16_t levels[CHANNELS] = { 10922, 10922, 10922, 10922 };
    int results[CHANNELS];
    thr_fault fault = THR_FAULT_KEEPALIVE_LAPSED;
    unsigned n;
    uint32_t transactions;
    power_up(0xFu & ~(1u << 2));
    CHECK_EQ(start(results), THR_I2C_OK);
    CHECK_EQ(results[0], THR_I2C_OK);
    CHECK_EQ(results[1], THR_I2C_OK);
    CHECK_EQ(results[2], THR_I2C_NACK);
    CHECK_EQ(results[3], THR_I2C_OK);
    for (n = 0; n < CHANNELS; n++) {
        int reported = poll_fault(n, &fault);
        CHECK_EQ(reported, n == 2u);
        if (n == 2u) CHECK_EQ(fault, THR_FAULT_ACTUATOR_MISSING);
    }
    CHECK_EQ(poll_fault(2, &fault), 0); /* once */
    transactions = m.bus.transactions;
    tick(levels);
    CHECK_EQ(m.bus.transactions - transactions, 3u * 2u); /* select + RTP for 0, 1 and 3; nothing for 2 */
    CHECK_EQ(model_drv2605l_output(&m.chip[0]), 127);
    CHECK_EQ(model_drv2605l_output(&m.chip[3]), 118); /* 10922 of 3500 mV against its 2500: 118.5 */
    CHECK_EQ(m.chip[2].transactions, 0u);
    /* plugged in: the next retry (DRV2605L_RETRY_MS) configures it and says so */
    m.bus.chips[2] = &m.chip[2];
    m.clock_us += DRV2605L_RETRY_MS * 1000u;
    CHECK_EQ(poll_fault(2, &fault), 1);
    CHECK_EQ(fault, 0); /* THR_FAULT_CLEAR */
    CHECK_EQ(m.chip[2].reg[DRV2605L_REG_RATED_VOLTAGE], 142);
    tick(levels);
    CHECK_EQ(model_drv2605l_output(&m.chip[2]), 85); /* open loop: 10922 / 16384 x 127 of its clamp */
    CHECK_EQ(model_drv2605l_output(&m.chip[1]), 118);
    /* no mux: every channel is missing */
    power_up(0xFu);
    m.bus.present = 0;
    CHECK_EQ(start(results), THR_I2C_NACK);
    for (n = 0; n < CHANNELS; n++) {
        CHECK_EQ(results[n], THR_I2C_NACK);
        CHECK_EQ(poll_fault(n, &fault), 1);
        CHECK_EQ(fault, THR_FAULT_ACTUATOR_MISSING);
        CHECK_EQ(m.chip[n].transactions, 0u);
    }
    /* a port beyond the mux's eight, and an address that is not a TCA9548A's */
    CHECK_EQ(tca9548a_transfer(&m.mux, 8, DRV2605L_ADDRESS, (const uint8_t *)"\x02\x00", 2, 0, 0), THR_I2C_NACK);
    CHECK_EQ(tca9548a_init(&m.mux, &m.upstream, 0, 0x5A), THR_I2C_NACK);
}

/* Runs a channel's calibration to its end on model time, writing the other channels' levels every
 * millisecond as the core would: they keep playing while it calibrates. */
static int calibrate(unsigned channel, thr_calibration *result)
{
    unsigned ms;
    int16_t levels[CHANNELS] = { 0, 0, 0, 0 };
    CHECK_EQ(drv2605l_calibrate_start(&m.dev[channel], m.clock_us), THR_STATUS_OK);
    for (ms = 0; ms < 2000u; ms++) {
        unsigned n;
        for (n = 0; n < CHANNELS; n++) levels[n] = n == channel ? 0 : (int16_t)(1000 + 10 * (int)(ms % 50u));
        tick(levels);
        m.clock_us += 1000u;
        if (drv2605l_calibrate_poll(&m.dev[channel], m.clock_us, result)) return (int)ms;
    }
    return -1;
}

/* Channels 1 and 3 calibrate one after the other, each its own chip: GO on that chip only, the
 * result from its own LRA_PERIOD, kept by its own driver; the other channels play meanwhile. */
static void calibration_per_channel(void)
{
    thr_calibration result;
    int results[CHANNELS];
    uint32_t rtp_before[CHANNELS];
    unsigned n;
    power_up(0xFu);
    start(results);
    for (n = 0; n < CHANNELS; n++) rtp_before[n] = m.chip[n].rtp_writes;
    CHECK(calibrate(1, &result) > 1000); /* AUTO_CAL_TIME: about 1.1 s */
    CHECK_EQ(result.status, THR_STATUS_OK);
    /* 10^9 / (LRA_PERIOD x 9846): chip 1's 59 -> 1721 dHz */
    CHECK_EQ(result.resonant_dhz, 1721);
    CHECK(m.dev[1].calibration.valid);
    CHECK_EQ(m.dev[1].calibration.a_cal_comp, 0x0A);
    CHECK(!m.dev[0].calibration.valid);
    CHECK(!m.dev[3].calibration.valid);
    CHECK_EQ(m.chip[1].rtp_writes, rtp_before[1]); /* the calibrating chip got no levels */
    for (n = 0; n < CHANNELS; n++)
        if (n != 1u) CHECK(m.chip[n].rtp_writes > rtp_before[n] + 100u); /* the others played on */
    CHECK_EQ(m.chip[0].reg[DRV2605L_REG_LRA_PERIOD], 0);                 /* never calibrated */
    /* channel 3: its own LRA, 65 -> 1563 dHz; channel 1 keeps its own */
    CHECK(calibrate(3, &result) > 1000);
    CHECK_EQ(result.status, THR_STATUS_OK);
    CHECK_EQ(result.resonant_dhz, 1563);
    CHECK_EQ(m.dev[3].calibration.resonant_dhz, 1563);
    CHECK_EQ(m.dev[1].calibration.resonant_dhz, 1721);
    /* a failing calibration fails its channel's only */
    m.chip[0].cal_fails = 1;
    CHECK(calibrate(0, &result) > 1000);
    CHECK_EQ(result.status, THR_STATUS_INCOMPLETE);
    CHECK(!m.dev[0].calibration.valid);
    CHECK(m.dev[1].calibration.valid && m.dev[3].calibration.valid);
    /* a kept calibration goes back into its own chip at the next init */
    CHECK_EQ(drv2605l_init(&m.dev[3], &m.channels, &m.config[3], &m.dev[3].calibration, m.clock_us), THR_I2C_OK);
    CHECK_EQ(m.chip[3].reg[DRV2605L_REG_A_CAL_BEMF], 0x7B);
    CHECK_EQ(m.chip[0].reg[DRV2605L_REG_A_CAL_BEMF], 0x6D); /* channel 0: the uncalibrated default */
}

/* A hung bus behind the mux (a timeout): the selection is unknown, so the next transfer selects
 * again; a chip's NACK keeps it. */
static void selection_after_a_timeout(void)
{
    static const uint8_t rtp[2] = { DRV2605L_REG_RTP_INPUT, 5 };
    int results[CHANNELS];
    uint32_t selects;
    power_up(0xFu);
    start(results);
    selects = m.mux.selects;
    m.chip[3].timeout = 1;
    CHECK_EQ(tca9548a_transfer(&m.mux, 3, DRV2605L_ADDRESS, rtp, 2, 0, 0), THR_I2C_TIMEOUT);
    CHECK_EQ(m.mux.selected, TCA9548A_SELECTED_UNKNOWN);
    m.chip[3].timeout = 0;
    CHECK_EQ(tca9548a_transfer(&m.mux, 3, DRV2605L_ADDRESS, rtp, 2, 0, 0), THR_I2C_OK);
    CHECK_EQ(m.mux.selects - selects, 1u);
    CHECK_EQ(m.chip[3].reg[DRV2605L_REG_RTP_INPUT], 5);
    m.chip[3].nack = 1;
    CHECK_EQ(tca9548a_transfer(&m.mux, 3, DRV2605L_ADDRESS, rtp, 2, 0, 0), THR_I2C_NACK);
    CHECK_EQ(m.mux.selected, TCA9548A_CONTROL_PORT(3));
}

#if THR_MAX_CHANNELS >= 4u && THR_CHANNEL_PAN
/* The core behind it all (the clang build: 8 channels, the pan): a stub board whose four channels'
 * actuator_write go to the four drivers behind the mux. */
static stub_board core_board;

static void core_actuator_write(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)frequency_dhz;
    if (channel < CHANNELS) drv2605l_write(&m.dev[channel], drive_q14);
}

/* A 1.6 s continuous event at full intensity; the pan holds at channel 0 for 200 ms, moves to
 * channel 3 over a second, holds: each chip sounds in turn, and no tick needs more of the bus than
 * two channels' changes. */
static void core_pans_across_the_chips(void)
{
    static const uint8_t body[] = { 0xD0, 0x0F, 0x01, 0x0D, 0xFF, 0x80, 0x00, 0x00, 0xD0, 0x0F };
    static const uint32_t times[3] = { 0, 200000, 1200000 };
    static const int32_t pan[3] = { 0, 0, 32768 };
    static const uint32_t check_ms[4] = { 100, 533, 867, 1400 }; /* channel k at full: 0.2 s + k/3 s */
    stub_board *sb = &core_board;
    thr_hal hal;
    uint8_t tl[64], handle;
    int results[CHANNELS], seen[4][CHANNELS];
    uint32_t ms, at, worst = 0, bytes, length = make_timeline(tl, 0, body, sizeof body);
    unsigned n, k = 0;
    power_up(0xFu);
    start(results);
    stub_board_init(sb);
    sb->config.channel_count = CHANNELS;
    sb->config.keepalive_ms = 60000u; /* no host here: the keep-alive would fade it */
    for (n = 0; n < CHANNELS; n++) {
        sb->config.channels[n].kind = ratings[n].kind;
        sb->config.channels[n].resonant_dhz = ratings[n].resonant_dhz;
        sb->config.channels[n].rated_mv = ratings[n].rated_mv;
        sb->config.channels[n].max_mv = ratings[n].max_mv;
    }
    hal = sb->hal;
    hal.actuator_write = core_actuator_write;
    CHECK_EQ(thr_core_init(&sb->core, &hal, &sb->config, sb->memory, sizeof sb->memory), THR_STATUS_OK);
    CHECK_EQ(thr_store_load(&sb->core, tl, length, &handle), THR_STATUS_OK);
    at = sb->core.next_tick;
    CHECK_EQ(thr_player_start(&sb->core, 0, handle, at, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_curve(&sb->core, 0, THR_CTL_PAN, at, 3, times, pan), THR_STATUS_OK);
    for (ms = 0; ms <= 1500u; ms++) {
        sb->clock_us = at + ms * 1000u;
        bytes = m.bus.bytes;
        thr_core_tick(&sb->core);
        if (m.bus.bytes - bytes > worst) worst = m.bus.bytes - bytes;
        if (k < 4u && ms == check_ms[k]) {
            for (n = 0; n < CHANNELS; n++) seen[k][n] = model_drv2605l_output(&m.chip[n]);
            k++;
        }
    }
    CHECK_EQ(k, 4u);
    for (k = 0; k < 4u; k++)
        for (n = 0; n < CHANNELS; n++) {
            if (n == k)
                CHECK(seen[k][n] >= 80); /* its chip at (nearly) full level: 85 for the ERM, 118-127 for the LRAs */
            else /* the tick 0.33 ms from the exact place: sqrt(0.001) of it on a neighbour (SEMANTICS.md §12.2) */
                CHECK(seen[k][n] <= 5);
        }
    CHECK(worst <= 2u * 5u + 3u); /* two neighbours' changes, and a chip's wake (MODE) at most */
    printf("tca9548a: a pan over 4 chips through the core, at most %u bytes of the bus in one tick\n", worst);
}
#endif

void tca9548a_tests(void)
{
    run_test("tca9548a: each channel its own init and rating", each_channel_its_own_init);
    run_test("tca9548a: levels to the right chip, selects only on a port change", levels_to_the_right_chip);
    run_test("tca9548a: a missing chip faults its channel only", missing_chip_faults_its_channel);
    run_test("tca9548a: calibration per channel", calibration_per_channel);
    run_test("tca9548a: selection after a timeout", selection_after_a_timeout);
#if THR_MAX_CHANNELS >= 4u && THR_CHANNEL_PAN
    run_test("tca9548a: a pan through the core moves from chip to chip", core_pans_across_the_chips);
#endif
}
