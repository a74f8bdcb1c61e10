/* Message set 1.2 on the board: a player's channels (PLAYER_CHANNELS), the channel pan
 * (SEMANTICS.md §12, with THR_CHANNEL_PAN), the clock trim (CLOCK_TRIM, §1.6) and channel names
 * (CHANNEL_READ), through the core's functions and through a host on the line. */
#include <math.h>
#include <string.h>

#define THR_MESSAGES_ALL
#include "test.h"
#include "test_board.h"
#include "test_host.h"
#include "thr_internal.h" /* thr_sqrt_q15 */
#include "thr_messages.h"

static stub_board board;
static test_host host;
static uint8_t tl[64];

/* The most channels this build's boards have (the gcc build keeps the default 2). */
#define WIDE (THR_MAX_CHANNELS < 4u ? THR_MAX_CHANNELS : 4u)

static void setup_channels(uint8_t channels)
{
    uint8_t c;
    stub_board_init(&board);
    board.config.channel_count = channels;
    for (c = 1; c < channels; c++) board.config.channels[c] = board.config.channels[0];
    board.config.channels[0].name = "left";
    board.config.boot_epoch = 0x4000;
    stub_board_start(&board);
    test_host_attach(&host, &board);
}

/* What was traced on `channel` at board time `ms`, or 0. */
static const thr_trace_sample *traced(uint8_t channel, uint32_t ms)
{
    uint32_t i;
    for (i = 0; i < board.trace_count; i++) {
        if (board.trace[i].channel == channel && board.trace[i].time_us == ms * 1000u) return &board.trace[i];
    }
    return 0;
}

/* Intensity and sharpness (Q15) traced on `channel` at `ms`, or -1. */
static int level_at(uint8_t channel, uint32_t ms)
{
    const thr_trace_sample *s = traced(channel, ms);
    return s ? s->intensity_q15 : -1;
}

static int sharpness_at(uint8_t channel, uint32_t ms)
{
    const thr_trace_sample *s = traced(channel, ms);
    return s ? s->sharpness_q15 : -1;
}

/* A continuous event from 0 for `ms` milliseconds at full intensity, sharpness 0.5. */
static uint8_t load_steady(uint32_t ms)
{
    uint8_t body[16], handle = 0xFF;
    uint32_t n = 0, k;
    for (k = 0; k < 2u; k++) { /* the duration, then the event's duration: the same varint */
        uint32_t v = ms;
        if (k == 1u) {
            body[n++] = 0x01; /* one shape: continuous, sustained, with a duration; I 1, S 0.5 */
            body[n++] = 0x0D;
            body[n++] = 0xFF;
            body[n++] = 0x80;
            body[n++] = 0x00; /* an event of shape 0 at 0 */
            body[n++] = 0x00;
        }
        do {
            body[n++] = (uint8_t)((v & 0x7Fu) | (v > 0x7Fu ? 0x80u : 0u));
            v >>= 7;
        } while (v);
    }
    CHECK_EQ(thr_store_load(&board.core, tl, make_timeline(tl, 0, body, n), &handle), THR_STATUS_OK);
    return handle;
}

/* The transient row of SEMANTICS §11 (I 0.8, S 0.3 at 100 ms) and a continuous event (I 0.56,
 * S 0.88) from 110 to 210 ms under it: two events mixed, intensity and sharpness. */
static const uint8_t mixed_body[] = {
    0xD2, 0x01, 0x02, 0x04, 0xCC, 0x4D, 0x0D, 0x90, 0xE0, 0x00, 0x64, 0x04, 0x0A, 0x64
};

/* ---------- the channel set ---------- */

/* A player on channels {0, 2} of a 3-channel board ({1} of a 2-channel one) renders there only, each
 * of them tick for tick as a one-channel board renders the pattern. */
static void targeting(void)
{
    static int single[300][2];
    uint8_t set[2] = { 0, 2 }, n = THR_MAX_CHANNELS >= 3u ? 3u : 2u, count = n == 3u ? 2u : 1u, handle = 0xFF, c;
    uint32_t ms;
    if (n == 2u) set[0] = 1;
    setup_channels(1);
    CHECK_EQ(thr_store_load(&board.core, tl, make_timeline(tl, 0, mixed_body, sizeof mixed_body), &handle),
             THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 300);
    for (ms = 0; ms < 300u; ms++) {
        single[ms][0] = level_at(0, ms);
        single[ms][1] = sharpness_at(0, ms);
    }
    CHECK(single[105][0] > 0 && single[115][0] > single[150][0] && single[150][0] > 0);
    setup_channels(n);
    CHECK_EQ(thr_store_load(&board.core, tl, make_timeline(tl, 0, mixed_body, sizeof mixed_body), &handle),
             THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, count, set), THR_STATUS_OK); /* at 0: from the first tick */
    board_run_ms(&board, 300);
    for (ms = 0; ms < 300u; ms++) {
        for (c = 0; c < n; c++) {
            int on = c == set[0] || (count == 2u && c == set[1]);
            CHECK_EQ(level_at(c, ms), on ? single[ms][0] : 0);
            CHECK_EQ(sharpness_at(c, ms), on ? single[ms][1] : 0);
        }
    }
}

/* A change at a stated time applies from that tick on, to the events already sounding (no
 * restart); one waiting change at most: a newer one replaces it; PLAYER_START resets the set when
 * it is handled, so a PLAYER_CHANNELS after a scheduled start applies from the start. */
static void changes(void)
{
    uint8_t zero = 0, one = 1, handle;
    setup_channels(2);
    handle = load_steady(2000);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_channels(&board.core, 0, 50000, 1, &one), THR_STATUS_OK);
    board_run_ms(&board, 60);
    CHECK_EQ(level_at(0, 49), 32768);
    CHECK_EQ(level_at(1, 49), 32768);
    CHECK_EQ(level_at(0, 50), 0);
    CHECK_EQ(level_at(1, 50), 32768); /* the same event, where it was: no new attack */
    CHECK_EQ(board.core.player[0].channel_mask, 2);
    /* pending-replace: {0} at 80 ms is replaced by {0, 1} at 100 ms before it applies */
    CHECK_EQ(thr_player_channels(&board.core, 0, 80000, 1, &zero), THR_STATUS_OK);
    CHECK_EQ(thr_player_channels(&board.core, 0, 100000, 0, 0), THR_STATUS_OK); /* empty: every channel */
    board_run_ms(&board, 50);
    CHECK_EQ(level_at(0, 90), 0);
    CHECK_EQ(level_at(1, 90), 32768);
    CHECK_EQ(level_at(0, 100), 32768);
    CHECK_EQ(level_at(1, 100), 32768);
    /* a start resets the set to every channel when it is handled, whatever waited */
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 1, &zero), THR_STATUS_OK);
    board_run_ms(&board, 2);
    CHECK_EQ(board.core.player[0].channel_mask, 1);
    CHECK_EQ(thr_player_channels(&board.core, 0, 400000, 1, &zero), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 200000, 0), THR_STATUS_OK);
    CHECK_EQ(board.core.player[0].channel_mask, 0xFF);
    CHECK_EQ(board.core.player[0].next_mask, 0);
    /* then a PLAYER_CHANNELS at once: it holds from the scheduled start on */
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 1, &one), THR_STATUS_OK);
    board_run_ms(&board, 100);
    CHECK_EQ(level_at(1, 199), 0);
    CHECK_EQ(level_at(0, 200), 0);
    CHECK_EQ(level_at(1, 200), 32768);
}

static void bad_arguments(void)
{
    uint8_t twice[2] = { 1, 1 }, beyond = 2, nine[9] = { 0, 1, 0, 1, 0, 1, 0, 1, 0 };
    setup_channels(2);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 2, twice), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 1, &beyond), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 9, nine), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_player_channels(&board.core, THR_MAX_PLAYERS, 0, 1, &beyond), THR_STATUS_NO_SUCH_PLAYER);
    CHECK_EQ(board.core.player[0].next_mask, 0); /* nothing refused was kept */
    CHECK_EQ(thr_clock_trim(&board.core, 40000001), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_clock_trim(&board.core, -40000001), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_clock_trim(&board.core, -40000000), THR_STATUS_OK);
    CHECK_EQ(board.core.trim_ppb, -40000000);
}

/* ---------- the pan (SEMANTICS.md §12.2) ---------- */

#if THR_CHANNEL_PAN
/* Gaps (THR_CHANNEL_GAP) hold places on the pan line: a board's share of a rig's line
 * (channel 1, a gap, channel 0) gives the gap its power and plays nothing there; a set of gaps
 * only is refused. */
static void pan_gaps(void)
{
    uint8_t line[3] = { 1, THR_CHANNEL_GAP, 0 }, gaps[2] = { THR_CHANNEL_GAP, THR_CHANNEL_GAP }, handle;
    setup_channels(2);
    handle = load_steady(5000);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 2, gaps), THR_STATUS_BAD_ARGUMENT);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 3, line), THR_STATUS_OK);
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN, 8192, 0), THR_STATUS_OK);      /* x = 0.5: 1 and the gap */
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN, 24576, 10000), THR_STATUS_OK); /* x = 1.5: gap and 0 */
    board_run_ms(&board, 20);
    CHECK_NEAR(level_at(1, 5), (long long)floor(sqrt(0.5) * 32768.0 + 0.5), 16);
    CHECK_EQ(level_at(0, 5), 0);
    CHECK_NEAR(level_at(0, 15), (long long)floor(sqrt(0.5) * 32768.0 + 0.5), 16);
    CHECK_EQ(level_at(1, 15), 0);
}
#endif

#if THR_CHANNEL_PAN
/* The float formula's gain of set position k (of n) at pan p. */
static double pan_gain(double p, unsigned n, unsigned k)
{
    double x, f;
    unsigned i;
    if (n == 1u) return 1.0;
    x = p * (n - 1u);
    i = (unsigned)floor(x);
    if (i > n - 2u) i = n - 2u;
    f = x - i;
    return k == i ? sqrt(1.0 - f) : k == i + 1u ? sqrt(f) : 0.0;
}

/* Pan steps at 0, 0.25, 0.5 and 1 over 2 and 4 channels (a reversed order for 4): every channel's
 * level within 1/2048 of the formula (§12.4). Before the first step, and after a new start, every
 * channel of the set at 1. */
static void pan_steps(void)
{
    static const int32_t pans[4] = { 0, 8192, 16384, 32768 };
    uint8_t order[4] = { 3, 2, 1, 0 }, n, handle, k, c;
    for (n = 2; n <= WIDE; n = (uint8_t)(n + 2u)) {
        const uint8_t *set = n == 4u ? order : 0;
        uint32_t ms = 0;
        unsigned s;
        setup_channels(n);
        handle = load_steady(5000);
        CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
        if (set) CHECK_EQ(thr_player_channels(&board.core, 0, 0, n, set), THR_STATUS_OK);
        board_run_ms(&board, 5);
        for (c = 0; c < n; c++) CHECK_EQ(level_at(c, 4), 32768); /* not set: every channel at 1 */
        for (s = 0; s < 4u; s++) {
            ms = 10u + 10u * s;
            CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN, pans[s], ms * 1000u), THR_STATUS_OK);
        }
        board_run_ms(&board, 45);
        for (s = 0; s < 4u; s++) {
            double energy = 0;
            for (k = 0; k < n; k++) {
                int level = level_at(set ? set[k] : k, 10u + 10u * s);
                double want = pan_gain(pans[s] / 32768.0, n, k) * 32768.0;
                CHECK_NEAR(level, (long long)floor(want + 0.5), 16); /* 1/2048 */
                energy += (double)level * level / (32768.0 * 32768.0);
            }
            CHECK(fabs(energy - 1.0) < 1.0 / 2048.0);
        }
        /* a new start: the pan as never set, the set every channel again */
        CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
        CHECK_EQ(board.core.player[0].rt.value[THR_CTL_PAN], THR_PAN_UNSET);
        board_run_ms(&board, 3);
        for (c = 0; c < n; c++) CHECK_EQ(level_at(c, (uint32_t)board.core.now / 1000u), 32768);
    }
}

/* A pan curve from 0 to 1 over 2 s on 2 channels: at every 7th tick, the squared gains (the power)
 * are within (n - 1) 2^-13 + 2^-14 of the formula's at the exact pan (§12.4), sum to 1, and the
 * gains are within 1/2048 wherever both are above 1/16. */
static void pan_curve(void)
{
    uint8_t handle, p[THR_PLAYER_CURVE_POINTS_ITEMS_AT + 2u * THR_PLAYER_CURVE_POINTS_ITEM_SIZE];
    uint32_t ms, start;
    const test_received *r;
    setup_channels(2);
    test_host_hello(&host, 9, 2);
    thr_core_poll(&board.core);
    test_host_collect(&host);
    if (!test_host_connected(&host)) return;
    handle = load_steady(5000);
    CHECK_EQ(thr_player_start(&board.core, 1, handle, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 2);
    start = board.core.now + 10000u;
    thr_put16(p + THR_PLAYER_CURVE_TAG_AT, 77);
    p[THR_PLAYER_CURVE_PLAYER_AT] = 1;
    p[THR_PLAYER_CURVE_PARAMETER_AT] = THR_PARAMETER_CHANNEL_PAN_CONTROL;
    thr_put32(p + THR_PLAYER_CURVE_AT_TIME_AT, start);
    p[THR_PLAYER_CURVE_POINTS_AT] = 2;
    thr_put32(p + THR_PLAYER_CURVE_POINTS_ITEMS_AT + THR_PLAYER_CURVE_POINTS_TIME_AT, 0);
    thr_put16(p + THR_PLAYER_CURVE_POINTS_ITEMS_AT + THR_PLAYER_CURVE_POINTS_VALUE_AT, 0);
    thr_put32(p + THR_PLAYER_CURVE_POINTS_ITEMS_AT + THR_PLAYER_CURVE_POINTS_ITEM_SIZE +
                  THR_PLAYER_CURVE_POINTS_TIME_AT,
              2000000);
    thr_put16(p + THR_PLAYER_CURVE_POINTS_ITEMS_AT + THR_PLAYER_CURVE_POINTS_ITEM_SIZE +
                  THR_PLAYER_CURVE_POINTS_VALUE_AT,
              16384);
    test_host_send(&host, 1, ++host.seq, THR_MSG_PLAYER_CURVE, p, sizeof p, 0);
    thr_core_poll(&board.core);
    host.got_count = 0;
    test_host_collect(&host);
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    board.trace_count = 0;
    board_run_ms(&board, 2100);
    for (ms = start / 1000u; ms <= start / 1000u + 2000u; ms += 7u) {
        double pan = (ms * 1000.0 - start) / 2000000.0, g0 = pan_gain(pan, 2, 0), g1 = pan_gain(pan, 2, 1);
        double l0 = level_at(0, ms) / 32768.0, l1 = level_at(1, ms) / 32768.0;
        CHECK(fabs(l0 * l0 - g0 * g0) <= 1.0 / 8192 + 1.0 / 16384);
        CHECK(fabs(l1 * l1 - g1 * g1) <= 1.0 / 8192 + 1.0 / 16384);
        CHECK(fabs(l0 * l0 + l1 * l1 - 1.0) < 1.0 / 2048.0);
        if (g0 > 1.0 / 16 && g1 > 1.0 / 16) {
            CHECK(fabs(l0 - g0) <= 1.0 / 2048);
            CHECK(fabs(l1 - g1) <= 1.0 / 2048);
        }
    }
    CHECK_EQ(level_at(0, start / 1000u + 2050u), 0); /* the last point holds: all on channel 1 */
    CHECK_EQ(level_at(1, start / 1000u + 2050u), 32768);
}

/* A set of one channel has gain 1 whatever the pan; the pan order is the list's, not the channels'. */
static void pan_order(void)
{
    uint8_t only = 1, backwards[2] = { 1, 0 }, handle;
    setup_channels(2);
    handle = load_steady(2000);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN, 8192, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 1, &only), THR_STATUS_OK);
    board_run_ms(&board, 3);
    CHECK_EQ(level_at(0, 2), 0);
    CHECK_EQ(level_at(1, 2), 32768);
    CHECK_EQ(thr_player_channels(&board.core, 0, 0, 2, backwards), THR_STATUS_OK);
    board_run_ms(&board, 3);
    CHECK_NEAR(level_at(1, 4), 28378, 1); /* first of the set: sqrt(0.75) */
    CHECK_NEAR(level_at(0, 4), 16384, 1); /* sqrt(0.25) */
}
#endif

/* The square roots behind the gains (within half a unit of sqrt(f x 32768) everywhere) and the
 * DRV2605L driver's ratings. */
static void square_root(void)
{
    uint32_t f;
    for (f = 0; f <= 32768u; f++) {
        double exact = sqrt((double)f * 32768.0);
        CHECK(fabs((double)thr_sqrt_q15(f) - exact) <= 0.5);
    }
    CHECK_EQ(thr_sqrt_q15(0), 0);
    CHECK_EQ(thr_sqrt_q15(32768), 32768);
    CHECK_EQ(thr_isqrt(0xFFFFFFFFu), 65535); /* the floor, for any 32-bit number */
    CHECK_EQ(thr_isqrt(65536u * 65535u), 65535);
    CHECK_EQ(thr_isqrt(1000000u - 150u * 1700u), 863);
}

/* ---------- the clock trim (SEMANTICS.md §1.6) ---------- */

/* 600 s of ticks: the pattern position against the exact (1 + ppb / 10^9) x board time. */
static void trim_run(int32_t ppb)
{
    uint8_t handle;
    uint32_t tick;
    const thr_player *pl = &board.core.player[0];
    long double exact, got;
    setup_channels(1);
    handle = load_steady(700000);
    CHECK_EQ(thr_clock_trim(&board.core, ppb), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_OK);
    for (tick = 0; tick < 600000u; tick++) {
        thr_core_tick(&board.core);
        if (tick % 60000u == 59999u) {
            exact = (long double)(tick + 1u) * 1000.0L * (1.0L + ppb / 1e9L); /* pattern us */
            got = (long double)pl->pass[pl->current].p_ms * 1000.0L + pl->pass[pl->current].p_frac / 256.0L;
            CHECK(fabsl(got - exact) < 1.0L); /* < 1 us (a tick is 1000) */
        }
    }
    CHECK_EQ(pl->state, THR_PLAYER_PLAYING);
}

static void clock_trim(void)
{
    trim_run(100000);
    trim_run(-100000);
    trim_run(-40125);
    trim_run(30927835);  /* a board 3 % slow: 1 / 0.97 - 1 */
    trim_run(-29126214); /* 3 % fast: 1 / 1.03 - 1 */
    trim_run(40000000);
}

/* ---------- through the line ---------- */

static const test_received *command(uint8_t type, const uint8_t *payload, uint16_t length)
{
    test_host_send(&host, 1, ++host.seq, type, payload, length, 0);
    thr_core_poll(&board.core);
    host.got_count = 0;
    test_host_collect(&host);
    return test_host_find(&host, type == THR_MSG_CHANNEL_READ ? THR_MSG_CHANNEL_REPLY : THR_MSG_RESULT);
}

static void host_connect(uint32_t nonce)
{
    test_host_hello(&host, nonce, 2);
    thr_core_poll(&board.core);
    host.got_count = 0;
    test_host_collect(&host);
    if (test_host_connected(&host)) host.seq = host.ack = 0;
}

/* CHANNEL_READ answers the configured name (empty without one) and bad_argument beyond the
 * channels; PLAYER_CHANNELS and CLOCK_TRIM answer RESULT; a late PLAYER_CHANNELS is applied at
 * once and reported; a new host session resets the trim and every player's channels. */
static void over_the_line(void)
{
    uint8_t p[THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 9u];
    const test_received *r;
    setup_channels(2);
    board_run_ms(&board, 10);
    host_connect(1);
    p[0] = 1;
    p[1] = 0;
    p[2] = 0; /* CHANNEL_READ 0 */
    r = command(THR_MSG_CHANNEL_READ, p, THR_CHANNEL_READ_SIZE);
    CHECK(r && r->payload[2] == THR_STATUS_OK && r->payload[3] == 0 && r->payload[4] == 4 &&
          memcmp(r->payload + 5, "left", 4) == 0);
    p[2] = 1; /* no name */
    r = command(THR_MSG_CHANNEL_READ, p, THR_CHANNEL_READ_SIZE);
    CHECK(r && r->payload[2] == THR_STATUS_OK && r->payload[3] == 1 && r->payload[4] == 0);
    p[2] = 2; /* no such channel */
    r = command(THR_MSG_CHANNEL_READ, p, THR_CHANNEL_READ_SIZE);
    CHECK(r && r->payload[2] == THR_STATUS_BAD_ARGUMENT && r->payload[3] == 2 && r->payload[4] == 0);
    /* CLOCK_TRIM -40,125 ppb, then one beyond the range */
    thr_put16(p, 2);
    thr_put32(p + THR_CLOCK_TRIM_RATE_PPB_AT, (uint32_t)-40125);
    r = command(THR_MSG_CLOCK_TRIM, p, THR_CLOCK_TRIM_SIZE);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    CHECK_EQ(board.core.trim_ppb, -40125);
    thr_put32(p + THR_CLOCK_TRIM_RATE_PPB_AT, 40000001);
    r = command(THR_MSG_CLOCK_TRIM, p, THR_CLOCK_TRIM_SIZE);
    CHECK(r && r->payload[2] == THR_STATUS_BAD_ARGUMENT);
    /* PLAYER_CHANNELS {1} on player 2 at a time long past: applied at once, LATE follows */
    thr_put16(p, 3);
    p[THR_PLAYER_CHANNELS_PLAYER_AT] = 2;
    thr_put32(p + THR_PLAYER_CHANNELS_AT_TIME_AT, 1000);
    p[THR_PLAYER_CHANNELS_CHANNELS_AT] = 1;
    p[THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT] = 1;
    r = command(THR_MSG_PLAYER_CHANNELS, p, THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 1u);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    CHECK(test_host_find(&host, THR_MSG_LATE) != 0);
    CHECK_EQ(board.core.player[2].channel_mask, 2); /* taken as it arrived: nothing left waiting */
    CHECK_EQ(board.core.player[2].next_mask, 0);
    /* a duplicate, a channel beyond the board, a player beyond the board; nine channels: malformed */
    p[THR_PLAYER_CHANNELS_CHANNELS_AT] = 2;
    p[THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 1u] = 1;
    r = command(THR_MSG_PLAYER_CHANNELS, p, THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 2u);
    CHECK(r && r->payload[2] == THR_STATUS_BAD_ARGUMENT);
    p[THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 1u] = 2;
    r = command(THR_MSG_PLAYER_CHANNELS, p, THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 2u);
    CHECK(r && r->payload[2] == THR_STATUS_BAD_ARGUMENT);
    p[THR_PLAYER_CHANNELS_PLAYER_AT] = THR_MAX_PLAYERS;
    r = command(THR_MSG_PLAYER_CHANNELS, p, THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 2u);
    CHECK(r && r->payload[2] == THR_STATUS_NO_SUCH_PLAYER);
    p[THR_PLAYER_CHANNELS_CHANNELS_AT] = 9;
    memset(p + THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT, 0, 9);
    command(THR_MSG_PLAYER_CHANNELS, p, THR_PLAYER_CHANNELS_CHANNELS_ITEMS_AT + 9u);
    r = test_host_find(&host, THR_MSG_ERROR);
    CHECK(r && r->payload[0] == THR_STATUS_MALFORMED && r->payload[1] == THR_MSG_PLAYER_CHANNELS);
    /* the channel pan by PLAYER_PARAM: ok with THR_CHANNEL_PAN, not_supported without */
    thr_put16(p, 4);
    p[THR_PLAYER_PARAM_PLAYER_AT] = 0;
    p[THR_PLAYER_PARAM_PARAMETER_AT] = THR_PARAMETER_CHANNEL_PAN_CONTROL;
    thr_put16(p + THR_PLAYER_PARAM_VALUE_AT, 8192);
    thr_put32(p + THR_PLAYER_PARAM_AT_TIME_AT, 0);
    r = command(THR_MSG_PLAYER_PARAM, p, THR_PLAYER_PARAM_SIZE);
    CHECK(r && r->payload[2] == (THR_CHANNEL_PAN ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED));
    board_run_ms(&board, 2);
    CHECK_EQ(board.core.player[2].channel_mask, 2);
    /* another host: trim 0, every player on every channel, nothing waiting */
    p[0] = 0;
    CHECK_EQ(thr_player_channels(&board.core, 1, board.core.now + 100000u, 1, p), THR_STATUS_OK);
    host_connect(2);
    CHECK_EQ(board.core.trim_ppb, 0);
    CHECK_EQ(board.core.player[2].channel_mask, 0xFF);
    CHECK_EQ(board.core.player[1].next_mask, 0);
#if THR_CHANNEL_PAN
    CHECK_EQ(board.core.player[0].rt.value[THR_CTL_PAN], THR_PAN_UNSET);
    CHECK_EQ(board.core.player[0].rt.pending_n, 0);
#endif
}

void channels_tests(void)
{
    run_test("channels: targeting", targeting);
    run_test("channels: changes at their time", changes);
    run_test("channels: bad arguments", bad_arguments);
    run_test("channels: square root", square_root);
#if THR_CHANNEL_PAN
    run_test("channels: pan steps", pan_steps);
    run_test("channels: gaps on the pan line", pan_gaps);
    run_test("channels: pan curve", pan_curve);
    run_test("channels: pan order", pan_order);
#endif
    run_test("clock trim over 600 s", clock_trim);
    run_test("channels: over the line", over_the_line);
}
