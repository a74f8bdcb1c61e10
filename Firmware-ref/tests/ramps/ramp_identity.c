/* The renderer's two ways of working out an event in its attack or decay give the same output to
 * the bit (core/include/thr_config.h, THR_RENDER_RAMPS_INLINE): `make ramps-check` builds this
 * program with the option off and on, and compares what each prints, byte for byte.
 *
 * It prints every traced sample (intensity, sharpness, audio, drive, frequency, per channel and
 * tick) of CASES random patterns: continuous haptic and audio events, sustained or not, with every
 * attack, decay and release byte, overlapping, some ending while they ramp; authored attack, decay,
 * release and intensity controls (steps and curves), run-time controls, a rate, a pause and a
 * resume, a seek, loops. A fixed seed: the same cases on every run. */
#include <stdio.h>
#include <string.h>

#include "test_board.h"
#include "thr_internal.h"

#define CASES 400u

static stub_board board;
static uint32_t seed = 12345u;

static uint32_t random_below(uint32_t n)
{
    seed = seed * 1103515245u + 12345u;
    return (seed >> 8) % n;
}

static uint32_t put_varint(uint8_t *out, uint32_t v)
{
    uint32_t n = 0;
    do {
        out[n] = (uint8_t)(v & 0x7Fu);
        v >>= 7;
        if (v) out[n] |= 0x80u;
        n++;
    } while (v);
    return n;
}

/* A signed control byte: anything but 0x80 (not a value, TIMELINE.md). */
static uint8_t signed_value(void)
{
    uint8_t v = (uint8_t)random_below(256);
    return v == 0x80u ? 0x7Fu : v;
}

/* A random timeline (stride 6 shapes) into out; its size. */
static uint32_t random_timeline(uint8_t *out)
{
    uint8_t body[1024];
    uint32_t n = 0, shapes = 1u + random_below(4), s, records = 1u + random_below(14), r;
    uint32_t time = 0, latest = 0;
    uint8_t records_body[900];
    uint32_t m = 0;
    for (r = 0; r < records; r++) {
        uint32_t delta = random_below(4) ? random_below(400) : 0u, kind = random_below(6);
        time += delta;
        if (kind < 4u) { /* an event of one of the shapes, all with a duration */
            uint32_t duration = random_below(3000);
            records_body[m++] = (uint8_t)(random_below(shapes) << 2);
            m += put_varint(records_body + m, delta);
            m += put_varint(records_body + m, duration);
            if (time + duration > latest) latest = time + duration;
        } else if (kind == 4u) { /* a step of intensity (0), attack (2), decay (3) or release (4) */
            static const uint8_t codes[4] = { 0, 2, 3, 4 };
            uint8_t code = codes[random_below(4)];
            records_body[m++] = (uint8_t)(1u | code << 2);
            m += put_varint(records_body + m, delta);
            records_body[m++] = code == 0u ? (uint8_t)random_below(256) : signed_value();
            if (time > latest) latest = time;
        } else { /* a curve of three points of intensity or attack */
            uint8_t code = random_below(2) ? 0u : 2u;
            uint32_t p, point_time = 0;
            records_body[m++] = (uint8_t)(2u | code << 2 | 3u << 6);
            m += put_varint(records_body + m, delta);
            for (p = 0; p < 3u; p++) {
                uint32_t pd = random_below(800);
                point_time += pd;
                m += put_varint(records_body + m, pd);
                records_body[m++] = code == 0u ? (uint8_t)random_below(256) : signed_value();
            }
            if (time + point_time > latest) latest = time + point_time;
        }
    }
    n += put_varint(body + n, latest);
    n += put_varint(body + n, shapes);
    for (s = 0; s < shapes; s++) {
        uint8_t type = random_below(4) ? 1u : 2u; /* continuous, or audio continuous */
        body[n++] = (uint8_t)(type | 0x08u | (random_below(2) ? 0x04u : 0u));
        body[n++] = (uint8_t)random_below(256); /* level */
        body[n++] = (uint8_t)random_below(256); /* tone */
        body[n++] = (uint8_t)random_below(256); /* attack */
        body[n++] = (uint8_t)random_below(256); /* decay */
        body[n++] = (uint8_t)random_below(256); /* release */
    }
    memcpy(body + n, records_body, m);
    return make_timeline(out, 0x04u, body, n + m);
}

static void print_trace(void)
{
    uint32_t i;
    for (i = 0; i < board.trace_count; i++) {
        const thr_trace_sample *t = &board.trace[i];
        printf("%lu %u %u %u %u %d %u\n", (unsigned long)t->time_us, t->channel, t->intensity_q15, t->sharpness_q15,
               t->audio_q15, t->drive_q14, t->frequency_dhz);
    }
    board.trace_count = 0;
}

#if THR_RENDER_RAMPS_INLINE && THR_RENDER_RAMP_RECIPROCAL
/* Events whose inline ramp is through a reciprocal, in their attack [0] and in their decay [1]: the
 * flags only that branch sets (both are counted so that the comparison cannot pass because the
 * branch is never taken; it is the one the inline division takes too). */
static unsigned long inline_ramps[2];

static void count_inline_ramps(const thr_core *core)
{
    unsigned i;
    for (i = 0; i < core->active_count; i++) {
        uint8_t flags = core->active[i].flags;
        if (flags & THR_AF_RELEASING) continue; /* rtau is its release time again */
        inline_ramps[0] += (flags & THR_AF_RECIP_ATTACK) != 0;
        inline_ramps[1] += (flags & THR_AF_RECIP_DECAY) != 0;
    }
}
#else
#define count_inline_ramps(core) ((void)(core))
#endif

int main(void)
{
    static uint8_t bytes[1100];
    uint32_t c, ms;
    for (c = 0; c < CASES; c++) {
        uint32_t size = random_timeline(bytes), end = 1000u + random_below(5000);
        uint32_t pause_at = random_below(3) ? 0u : 200u + random_below(2000);
        uint8_t handle;
        thr_core *core = &board.core;
        board_setup(&board);
        if (thr_store_load(core, bytes, size, &handle) != THR_STATUS_OK) {
            printf("case %lu: the timeline did not load\n", (unsigned long)c);
            return 1;
        }
        printf("case %lu\n", (unsigned long)c);
        thr_player_rate(core, 0, (uint16_t)(random_below(2) ? 256u : 64u + random_below(700)));
        if (random_below(4) == 0u) thr_player_loop(core, 0, 1, 300000u + random_below(1500000));
        thr_player_start(core, 0, handle, 0, random_below(3) ? 0u : random_below(800000));
        if (random_below(3) == 0u) thr_player_param(core, 0, THR_CTL_ATTACK, (int32_t)random_below(65536) - 32768, 0);
        if (random_below(3) == 0u) thr_player_param(core, 0, THR_CTL_DECAY, (int32_t)random_below(65536) - 32768, 0);
        for (ms = 0; ms < end; ms += 500u) {
            if (pause_at && ms <= pause_at && pause_at < ms + 500u) {
                thr_player_pause(core, 0, pause_at * 1000u);
                thr_player_resume(core, 0, (pause_at + 1u + random_below(300)) * 1000u);
            }
            if (random_below(8) == 0u) thr_player_seek(core, 0, random_below(2000000), (ms + 250u) * 1000u);
            board_run_ms(&board, 500);
            count_inline_ramps(core);
            print_trace();
        }
    }
#if THR_RENDER_RAMPS_INLINE && THR_RENDER_RAMP_RECIPROCAL
    fprintf(stderr, "inline ramps through a reciprocal, seen at 500 ms steps: %lu in an attack, %lu in a decay\n",
            inline_ramps[0], inline_ramps[1]);
    if (!inline_ramps[0] || !inline_ramps[1]) return 1;
#endif
    return 0;
}
