/* Renderer and players: hand-computed values, commands, and the comparison with the Swift
 * reference renderer (tests/generated/reference_renders.h). */
#include <string.h>

#include "test_board.h"
#include "thr_internal.h"
#include "test.h"
#include "generated/reference_renders.h"

static stub_board board;
static uint8_t tl[1024];
static uint8_t notified[64];
static unsigned notified_count;

static void on_notify(void *ctx, uint8_t type, const uint8_t *payload, uint16_t length)
{
    (void)ctx;
    (void)payload;
    (void)length;
    if (notified_count < sizeof notified) notified[notified_count++] = type;
}

static uint8_t load(const uint8_t *body, uint32_t n, uint8_t flags)
{
    uint8_t handle = 0xFF;
    uint32_t length = make_timeline(tl, flags, body, n);
    CHECK_EQ(thr_store_load(&board.core, tl, length, &handle), THR_STATUS_OK);
    return handle;
}

static void setup(void)
{
    board_setup(&board);
    board.core.notify = on_notify;
    notified_count = 0;
}

/* SEMANTICS §11 row 1: transient at 0.1 s, I 0.8 (CC), S 0.3 (4D). */
static const uint8_t transient_body[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };

static void transient_shape(void)
{
    uint8_t h;
    setup();
    h = load(transient_body, sizeof transient_body, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 130);
    CHECK_EQ(trace_intensity_at(&board, 99), 0);
    CHECK_EQ(trace_intensity_at(&board, 100), 26214); /* 204/255 in Q15 */
    CHECK_EQ(trace_intensity_at(&board, 105), 26214);
    CHECK_EQ(trace_intensity_at(&board, 109), 26214);
    CHECK_EQ(trace_intensity_at(&board, 115), 13107); /* halfway down the 10 ms fall */
    CHECK_EQ(trace_intensity_at(&board, 120), 0);
    CHECK_EQ(trace_sharpness_at(&board, 100), 9895); /* 77/255 */
    CHECK_EQ(trace_sharpness_at(&board, 120), 0);    /* nothing plays: 0 (§2.3) */
    CHECK_EQ(notified_count, 1);
    CHECK_EQ(notified[0], 112); /* PLAYER_FINISHED */
    CHECK_EQ(board.core.player[0].state, THR_PLAYER_IDLE);
}

/* Continuous 0..100 ms, I 1, attack byte 0x80: A = 112289 us (table at 16448/32768). */
static const uint8_t attack_body[] = { 0x64, 0x01, 0x0D, 0xFF, 0x80, 0x80, 0x00, 0x00, 0x00, 0x00, 0x64 };

static void envelope_attack(void)
{
    uint8_t h;
    setup();
    CHECK_EQ(thr_envelope_us(16448), 112289u);
    CHECK_EQ(thr_envelope_us(0), 0u);
    CHECK_EQ(thr_envelope_us(32768), 1000000u);
    CHECK_EQ(thr_envelope_us(16384), 111111u);
    CHECK_EQ(thr_envelope_us(8192), 29023u);
    CHECK_EQ(thr_envelope_us(-5), 0u);
    CHECK_EQ(thr_envelope_us(40000), 1000000u);
    h = load(attack_body, sizeof attack_body, 0x04);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 110);
    CHECK_EQ(trace_intensity_at(&board, 0), 0);
    CHECK_EQ(trace_intensity_at(&board, 50), 14590); /* 32768 x 50000 / 112289 */
    CHECK_EQ(trace_intensity_at(&board, 99), 28890); /* 32768 x 99000 / 112289 */
    CHECK_EQ(trace_intensity_at(&board, 100), 0);    /* release 0: silent at start + duration */
}

static void conversions(void)
{
    CHECK_EQ(thr_uq8_to_q15(0), 0);
    CHECK_EQ(thr_uq8_to_q15(255), 32768);
    CHECK_EQ(thr_uq8_to_q15(128), 16448);
    CHECK_EQ(thr_sq8_to_q15(0x7F), 32768);
    CHECK_EQ(thr_sq8_to_q15(0x81), -32768);
    CHECK_EQ(thr_sq8_to_q15(0), 0);
}

/* A long continuous event (0..2000 ms, I 1) for the command tests. */
static const uint8_t long_body[] = { 0xD0, 0x0F, 0x01, 0x0D, 0xFF, 0x80, 0x00, 0x00, 0xD0, 0x0F };

static void stop_pause_resume_mute(void)
{
    uint8_t h;
    setup();
    h = load(long_body, sizeof long_body, 0);
    CHECK_EQ(thr_player_start(&board.core, 1, h, 10000, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_pause(&board.core, 1, 30000), THR_STATUS_OK);
    CHECK_EQ(thr_player_resume(&board.core, 1, 50000), THR_STATUS_OK);
    board_run_ms(&board, 60);
    CHECK_EQ(trace_intensity_at(&board, 9), 0); /* before its start time */
    CHECK_EQ(trace_intensity_at(&board, 10), 32768);
    CHECK_EQ(trace_intensity_at(&board, 29), 32768);
    CHECK_EQ(trace_intensity_at(&board, 30), 0); /* paused */
    CHECK_EQ(trace_intensity_at(&board, 49), 0);
    CHECK_EQ(trace_intensity_at(&board, 50), 32768); /* resumed */
    CHECK_EQ(thr_player_mute(&board.core, 1, 1), THR_STATUS_OK);
    board_run_ms(&board, 5);
    CHECK_EQ(trace_intensity_at(&board, 62), 0);
    CHECK_EQ(thr_player_mute(&board.core, 1, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_stop(&board.core, 1, 80000), THR_STATUS_OK);
    board_run_ms(&board, 30);
    CHECK_EQ(trace_intensity_at(&board, 79), 32768);
    CHECK_EQ(trace_intensity_at(&board, 80), 0);
    CHECK_EQ(board.core.player[1].state, THR_PLAYER_IDLE);
    CHECK_EQ(notified_count, 1);
    /* the paused time did not count: position 20 + 10 + ... the event still had 1,950 ms to go */
    CHECK_EQ(thr_player_start(&board.core, 9, h, 0, 0), THR_STATUS_NO_SUCH_PLAYER);
    CHECK_EQ(thr_player_start(&board.core, 0, 3, 0, 0), THR_STATUS_NO_SUCH_TIMELINE);
    CHECK_EQ(thr_store_free(&board.core, h), THR_STATUS_OK);
}

static void seek_and_rate(void)
{
    uint8_t h;
    setup();
    h = load(transient_body, sizeof transient_body, 0);
    /* start at position 95 ms: the transient (at 100 ms) comes 5 ms later */
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 95000), THR_STATUS_OK);
    board_run_ms(&board, 30);
    CHECK_EQ(trace_intensity_at(&board, 4), 0);
    CHECK_EQ(trace_intensity_at(&board, 5), 26214);
    CHECK_EQ(trace_intensity_at(&board, 20), 13107);
    /* rate 2: pattern times halve (the transient at 50 ms board time), its shape does not */
    setup();
    h = load(transient_body, sizeof transient_body, 0);
    CHECK_EQ(thr_player_rate(&board.core, 0, 512), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 80);
    CHECK_EQ(trace_intensity_at(&board, 49), 0);
    CHECK_EQ(trace_intensity_at(&board, 50), 26214);
    CHECK_EQ(trace_intensity_at(&board, 65), 13107);
    CHECK_EQ(thr_player_rate(&board.core, 0, 0), THR_STATUS_BAD_ARGUMENT);
    /* seek back while playing: the transient plays again */
    setup();
    h = load(transient_body, sizeof transient_body, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_seek(&board.core, 0, 90000, 5000), THR_STATUS_OK);
    board_run_ms(&board, 30);
    CHECK_EQ(trace_intensity_at(&board, 14), 0);
    CHECK_EQ(trace_intensity_at(&board, 15), 26214);
}

static void runtime_controls(void)
{
    uint8_t h;
    uint32_t times[2] = { 0, 100000 };
    int32_t values[2] = { 32768, 0 };
    setup();
    h = load(long_body, sizeof long_body, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_INTENSITY, 16384, 20000), THR_STATUS_OK);
    CHECK_EQ(thr_player_curve(&board.core, 0, THR_CTL_INTENSITY, 100000, 2, times, values), THR_STATUS_OK);
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_SHARPNESS, 60000, 0), THR_STATUS_OK); /* clamps to +1 */
    board_run_ms(&board, 260);
    CHECK_EQ(trace_intensity_at(&board, 19), 32768);
    CHECK_EQ(trace_intensity_at(&board, 20), 16384);  /* multiplies */
    CHECK_EQ(trace_intensity_at(&board, 100), 32768); /* curve supersedes the step */
    CHECK_EQ(trace_intensity_at(&board, 150), 16384);
    CHECK_EQ(trace_intensity_at(&board, 250), 0);    /* holds its last value */
    CHECK_EQ(trace_sharpness_at(&board, 30), 32768); /* 0.5 + 1, clipped once */
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN + 1u, 0, 0), THR_STATUS_BAD_ARGUMENT);
    /* the channel pan: a run-time control with THR_CHANNEL_PAN, said to be missing without it */
    CHECK_EQ(thr_player_param(&board.core, 0, THR_CTL_PAN, 0, 0),
             THR_CHANNEL_PAN ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED);
}

static void loop_passes(void)
{
    uint8_t h;
    setup();
    h = load(transient_body, sizeof transient_body, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    CHECK_EQ(thr_player_loop(&board.core, 0, 1, 150000), THR_STATUS_OK);
    board_run_ms(&board, 500);
    CHECK_EQ(trace_intensity_at(&board, 100), 26214);
    CHECK_EQ(trace_intensity_at(&board, 250), 26214);
    CHECK_EQ(trace_intensity_at(&board, 400), 26214);
    CHECK_EQ(trace_intensity_at(&board, 399), 0);
    CHECK_EQ(notified_count, 0); /* a loop does not finish */
}

static void mixing_and_overflow(void)
{
    /* 40 transients at the same tick, I 0.5 each: the sum clips at 1 and the pool bounds them */
    uint8_t body[256];
    uint32_t n = 0, i;
    uint8_t h;
    setup();
    body[n++] = 0x00; /* duration 0 */
    body[n++] = 0x01;
    body[n++] = 0x04;
    body[n++] = 0x80;
    body[n++] = 0x40;
    for (i = 0; i < 40; i++) {
        body[n++] = 0x00;
        body[n++] = 0x00;
    }
    h = load(body, n, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 5);
    CHECK_EQ(trace_intensity_at(&board, 0), 32768);
    CHECK_EQ(trace_sharpness_at(&board, 0), thr_uq8_to_q15(0x40));
    CHECK_EQ(board.core.dropped_events, 40u - THR_MAX_ACTIVE);
}

static void reference_comparison(void)
{
    unsigned i;
    long long worst_exact = 0, worst_window = 0, worst_sharp = 0;
    for (i = 0; i < REFERENCE_RENDER_COUNT; i++) {
        const reference_render *r = &reference_renders[i];
        uint8_t h = 0xFF;
        uint32_t k;
        long long case_exact = 0, case_window = 0;
        setup();
        CHECK_EQ(thr_store_load(&board.core, r->timeline, r->timeline_length, &h), THR_STATUS_OK);
        if (h == 0xFF) continue;
        CHECK_EQ(thr_player_rate(&board.core, 0, r->rate_q8), THR_STATUS_OK);
        CHECK_EQ(thr_player_start(&board.core, 0, h, 0, 0), THR_STATUS_OK);
        if (r->loop) CHECK_EQ(thr_player_loop(&board.core, 0, 1, r->loop_end_us), THR_STATUS_OK);
        board_run_ms(&board, r->samples < STUB_TRACE_MAX ? r->samples : STUB_TRACE_MAX);
        for (k = 0; k < r->samples && k < board.trace_count; k++) {
            long long fw = board.trace[k].intensity_q15, ref = r->intensity[k];
            long long lo = ref, hi = ref, d;
            uint32_t j;
            /* an edge may move by one tick (SEMANTICS.md §10): compare with the neighbours too */
            for (j = k ? k - 1u : 0u; j <= k + 1u && j < r->samples; j++) {
                if (r->intensity[j] < lo) lo = r->intensity[j];
                if (r->intensity[j] > hi) hi = r->intensity[j];
            }
            d = fw > ref ? fw - ref : ref - fw;
            if (d > case_exact) case_exact = d;
            d = fw < lo ? lo - fw : fw > hi ? fw - hi : 0;
            if (d > case_window) case_window = d;
            if (d > 328) fprintf(stderr, "%s: t=%u ms firmware %lld reference %lld\n", r->name, (unsigned)k, fw, ref);
            if (ref >= 328 && fw >= 328 && lo >= 328) { /* sharpness where intensity >= 0.01 */
                long long fs = board.trace[k].sharpness_q15, rs = r->sharpness[k];
                long long ds = fs > rs ? fs - rs : rs - fs;
                if (ds > worst_sharp) worst_sharp = ds;
                if (ds > 328 && d == 0 && lo == hi)
                    fprintf(stderr, "%s: t=%u ms sharpness firmware %lld reference %lld\n", r->name, (unsigned)k, fs,
                            rs);
                if (lo == hi) CHECK(ds <= 328);
            }
        }
        CHECK(case_window <= 328); /* 0.01: TIMELINE.md's epsilon */
        if (case_exact > worst_exact) worst_exact = case_exact;
        if (case_window > worst_window) worst_window = case_window;
    }
    printf("reference comparison: %u cases; max |firmware - reference| at the same tick %.5f, "
           "outside the +-1 tick window %.5f, sharpness %.5f\n",
           (unsigned)REFERENCE_RENDER_COUNT, (double)worst_exact / 32768.0, (double)worst_window / 32768.0,
           (double)worst_sharp / 32768.0);
}

/* The multiply-and-shift that replaces p_frac / 32000 in the control curves: every fraction. */
static void frac_to_eighth_ms(void)
{
    uint32_t frac, wrong = 0;
    for (frac = 0; frac < THR_FRAC_PER_MS; frac++) wrong += THR_FRAC_TO_EIGHTH_MS(frac) != frac / 32000u;
    CHECK_EQ(wrong, 0);
}

/* thr_ramp_reciprocal (THR_RENDER_RAMP_RECIPROCAL) with the reciprocal and shift the renderer works
 * out for a segment. */
static uint32_t ramp_through_reciprocal(uint32_t x, uint32_t length)
{
    unsigned k = 0;
    while (length >> k > 0x1FFFFu) k++;
    return thr_ramp_reciprocal(x >> k, length >> k, 0xFFFFFFFFu / (length >> k));
}

/* It gives thr_ramp's quotient to the bit: every length it divides by unshifted at both ends and the
 * middle, every x of a few, and random lengths up to 2^32 - 1 (a segment is at most 1 s, but the
 * proof does not need that). */
static void ramp_reciprocal(void)
{
    static const uint32_t every_x_of[] = { 1, 3, 1000, 0x10000, 0x1FFFF, 0x20000, 1000000 };
    uint32_t length, x, i, differ = 0, seed = 7;
    for (length = 1; length <= 0x1FFFFu; length++) {
        differ += ramp_through_reciprocal(0, length) != thr_ramp(0, length);
        differ += ramp_through_reciprocal(length / 2u, length) != thr_ramp(length / 2u, length);
        differ += ramp_through_reciprocal(length - 1u, length) != thr_ramp(length - 1u, length);
    }
    for (i = 0; i < sizeof every_x_of / sizeof every_x_of[0]; i++)
        for (x = 0; x < every_x_of[i]; x++)
            differ += ramp_through_reciprocal(x, every_x_of[i]) != thr_ramp(x, every_x_of[i]);
    for (i = 0; i < 1000000u; i++) {
        seed = seed * 1664525u + 1013904223u;
        length = (seed >> (seed & 31u)) | 1u;
        seed = seed * 1664525u + 1013904223u;
        x = seed % length;
        differ += ramp_through_reciprocal(x, length) != thr_ramp(x, length);
    }
    CHECK_EQ(differ, 0);
    /* where the shift makes x equal to the length: full */
    CHECK_EQ(thr_ramp(1000000, 1000001), 32768);
    CHECK_EQ(ramp_through_reciprocal(1000000, 1000001), 32768);
    CHECK_EQ(ramp_through_reciprocal(999999, 1000000), 32767); /* 124999 / 125000 */
    CHECK_EQ(ramp_through_reciprocal(125, 1000), 4096);        /* the correction step: 4095 before it */
}

void render_tests(void)
{
    run_test("conversions", conversions);
    run_test("frac to eighth ms", frac_to_eighth_ms);
    run_test("ramp through a reciprocal", ramp_reciprocal);
    run_test("transient shape", transient_shape);
    run_test("envelope attack", envelope_attack);
    run_test("stop pause resume mute", stop_pause_resume_mute);
    run_test("seek and rate", seek_and_rate);
    run_test("runtime controls", runtime_controls);
    run_test("loop passes", loop_passes);
    run_test("mixing and overflow", mixing_and_overflow);
    run_test("reference comparison", reference_comparison);
}
