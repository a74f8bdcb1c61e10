/* Waveform objects and the sample output (Protocol/WAVEFORM.md, SEMANTICS.md §6.4). Built with
 * THR_AUDIO_SAMPLES=1 (the clang test build); the gcc build checks that a board without it plays
 * no samples and reports a rate of 0. */
#include <string.h>

#include "test_board.h"
#include "test.h"
#include "thr_flash.h"
#include "thr_internal.h"
#include "generated/waveform_vectors.h"

static stub_board board;
static uint8_t tl[256];

/* An AudioCustom event naming resource 7, from 2 ms for 20 ms at volume `level` (UQ8), and a second
 * event at 4 ms when `second` (same resource, full volume). */
static uint8_t load_audio_timeline(uint8_t level, int second)
{
    uint8_t body[32], handle = 0xFF;
    uint32_t n = 0, length;
    body[n++] = second ? 24 : 22; /* duration, ticks */
    body[n++] = 1;                /* shape count */
    body[n++] = 1;                /* waveform count */
    body[n++] = 0x0B;
    body[n++] = level;
    body[n++] = 0x00; /* AudioCustom, has duration */
    body[n++] = 0x02;
    body[n++] = 0x07; /* waveform 0: registered resource 7 */
    body[n++] = 0x00;
    body[n++] = 2;
    body[n++] = 20;
    body[n++] = 0; /* event at 2 ms, 20 ms, waveform 0 */
    if (second) {
        body[n++] = 0x00;
        body[n++] = 2;
        body[n++] = 20;
        body[n++] = 0;
    }
    length = make_timeline(tl, 0x02, body, n);
    CHECK_EQ(thr_store_load(&board.core, tl, length, &handle), THR_STATUS_OK);
    return handle;
}

#if THR_AUDIO_SAMPLES
static uint8_t object[12 + 400];

/* A waveform object for `resource` at `rate` whose sample k is (k % 200) - 100. */
static uint32_t make_object(uint32_t resource, uint32_t rate, uint32_t count)
{
    uint32_t k;
    object[0] = 0x57;
    object[1] = 0x46;
    object[2] = 1;
    object[3] = 0;
    thr_put_le(object + 4, resource, 4);
    thr_put_le(object + 8, rate, 4);
    for (k = 0; k < count; k++) object[12 + k] = (uint8_t)(int8_t)((int)(k % 200u) - 100);
    return 12 + count;
}

static long wave(uint32_t k)
{
    return ((long)(k % 200u) - 100) * 256;
}

static void setup(void)
{
    board_setup(&board);
    board.config.audio_output = THR_AUDIO_OUTPUT_SIMULATED;
    board.config.audio_rate_hz = 8000;
    stub_board_start(&board);
}

static void validation(void)
{
    uint32_t size = make_object(7, 8000, 4);
    CHECK_EQ(thr_wf_validate(object, size).error, THR_TL_OK);
    CHECK_EQ(thr_wf_validate(object, 12).error, THR_TL_TRUNCATED);
    CHECK_EQ(thr_wf_validate(object, 12).offset, 12);
    CHECK_EQ(thr_wf_validate(object, 1).error, THR_TL_TRUNCATED);
    object[4] = 0; /* resource 0 */
    CHECK_EQ(thr_wf_validate(object, size).error, THR_TL_VALUE_OUT_OF_RANGE);
    CHECK_EQ(thr_wf_validate(object, size).offset, 4);
}

/* Protocol/vectors/waveform: the reason and offset every reader gives; a valid object of the
 * board's rate commits, one of another rate is not_supported, an invalid one bad_timeline. */
static void shared_vectors(void)
{
    unsigned i;
    for (i = 0; i < WF_VECTOR_COUNT; i++) {
        const wf_vector *v = &wf_vectors[i];
        thr_tl_result r = thr_wf_validate(v->bytes, v->length);
        uint8_t handle = 0xFF;
        thr_status s;
        if ((int)r.error != v->error || r.offset != v->offset) fprintf(stderr, "vector %s\n", v->id);
        CHECK_EQ(r.error, v->error);
        CHECK_EQ(r.offset, v->offset);
        if (v->length < 2u || v->bytes[0] != 0x57u || v->bytes[1] != 0x46u) continue; /* not sent as a waveform */
        setup();
        s = thr_store_load(&board.core, v->bytes, v->length, &handle);
        if (v->error)
            CHECK_EQ(s, THR_STATUS_BAD_TIMELINE);
        else
            CHECK_EQ(s, thr_get32(v->bytes + 8) == 8000u ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED);
    }
}

static void plays_samples_with_volume(void)
{
    uint8_t handle = 0xFF, timeline;
    uint32_t k;
    setup();
    CHECK_EQ(board.core.audio_per_tick, 8);
    CHECK_EQ(thr_store_load(&board.core, object, make_object(7, 8000, 400), &handle), THR_STATUS_OK);
    CHECK_EQ(board.core.timeline[handle].state, THR_TL_WAVEFORM);
    timeline = load_audio_timeline(0x80, 0); /* volume 128/255 */
    CHECK_EQ(thr_player_start(&board.core, 0, timeline, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 30);
    CHECK_EQ(board.audio_first_us, 2000); /* nothing written before the event */
    for (k = 0; k < 160; k++) {           /* 20 ms at 8 kHz: the first 160 samples */
        long volume = 16448;              /* 128/255 in Q15 */
        CHECK_EQ(audio_sample_at(&board, 2000 + 125 * k), wave(k) * volume >> 15);
    }
    CHECK_EQ(audio_sample_at(&board, 22000), 0); /* the event's duration ends it */
    /* the volume lane still says what sounds */
    CHECK_EQ(trace_intensity_at(&board, 5), 0);
}

static void overlapping_events_sum_and_clip(void)
{
    uint8_t handle, timeline;
    setup();
    CHECK_EQ(thr_store_load(&board.core, object, make_object(7, 8000, 400), &handle), THR_STATUS_OK);
    timeline = load_audio_timeline(0xFF, 1);
    CHECK_EQ(thr_player_start(&board.core, 0, timeline, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 30);
    /* second event from 4 ms: sample k of the first plus sample k - 16 of the second */
    CHECK_EQ(audio_sample_at(&board, 2000 + 125 * 136), wave(136) + wave(120));
    /* both near -100: the sum clips at -1 */
    CHECK_EQ(audio_sample_at(&board, 2000 + 125 * 17), -32767);
    /* the first has ended, the second plays on alone until 24 ms */
    CHECK_EQ(audio_sample_at(&board, 22000), wave(144));
    CHECK_EQ(audio_sample_at(&board, 24000), 0);
}

static void refusals_and_missing_objects(void)
{
    uint8_t handle = 0xFF, timeline;
    setup();
    /* another rate: the host must resample */
    CHECK_EQ(thr_store_load(&board.core, object, make_object(7, 16000, 10), &handle), THR_STATUS_NOT_SUPPORTED);
    CHECK_EQ(board.core.timeline[0].state, THR_TL_FREE);
    /* a waveform object is not a timeline: players and slots refuse it */
    CHECK_EQ(thr_store_load(&board.core, object, make_object(7, 8000, 400), &handle), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(&board.core, 0, handle, 0, 0), THR_STATUS_NO_SUCH_TIMELINE);
    CHECK_EQ(thr_slot_store(&board.core, handle, 0), THR_STATUS_NO_SUCH_TIMELINE);
    /* freed while its event sounds: silence from then on, nothing read from freed memory */
    timeline = load_audio_timeline(0xFF, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, timeline, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 5);
    CHECK_EQ(thr_store_free(&board.core, handle), THR_STATUS_OK);
    board_run_ms(&board, 10);
    CHECK_EQ(audio_sample_at(&board, 3000), wave(8));
    CHECK_EQ(audio_sample_at(&board, 10000), 0);
    CHECK(board.audio_count < 8u * 7u); /* a tick after the free, no more is written */
}

static void unusable_rate_plays_nothing(void)
{
    board_setup(&board);
    board.config.audio_rate_hz = 44100; /* not a whole number of us per sample */
    stub_board_start(&board);
    CHECK_EQ(board.core.audio_per_tick, 0);
}

void waveform_tests(void)
{
    run_test("waveform validation", validation);
    run_test("waveform vectors", shared_vectors);
    run_test("waveform plays with volume", plays_samples_with_volume);
    run_test("waveform overlap sums and clips", overlapping_events_sum_and_clip);
    run_test("waveform refusals and missing objects", refusals_and_missing_objects);
    run_test("waveform unusable rate", unusable_rate_plays_nothing);
}
#else
/* A board built without sample output: a waveform object does not validate as a timeline, and the
 * audio event still plays its volume lane. */
static void without_samples(void)
{
    static const uint8_t not_a_timeline[] = { 0x57, 0x46, 1, 0, 7, 0, 0, 0, 0x40, 0x1F, 0, 0, 5 };
    uint8_t handle = 0xFF, timeline;
    board_setup(&board);
    board.config.audio_rate_hz = 8000;
    stub_board_start(&board);
    CHECK_EQ(thr_store_load(&board.core, not_a_timeline, sizeof not_a_timeline, &handle), THR_STATUS_BAD_TIMELINE);
    timeline = load_audio_timeline(0xFF, 0);
    CHECK_EQ(thr_player_start(&board.core, 0, timeline, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 10);
    CHECK_EQ(board.trace[5].audio_q15, 32768);
}

void waveform_tests(void)
{
    run_test("no sample output", without_samples);
}
#endif
