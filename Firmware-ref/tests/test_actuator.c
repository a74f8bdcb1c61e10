/* Actuator backends: rating limits, overdrive on a rising edge, braking on a falling one. */
#include "test_board.h"
#include "test.h"
#include "thr_internal.h"

static thr_actuator_state lra(void)
{
    thr_actuator_state s;
    s.kind = THR_ACTUATOR_KIND_LRA;
    s.resonant_dhz = 1700;
    s.rated_mv = 2000;
    s.max_mv = 3000;
    s.boost_len = 3;
    s.boost_ticks = 0;
    s.boost_q14 = 0;
    s.last_level = 0;
    return s;
}

static void limits_and_edges(void)
{
    thr_actuator_state s = lra();
    int16_t drive;
    uint16_t freq;
    unsigned i;
    /* a step from 0 to full: overdrive for boost_len ticks, never above max_mv (16384) */
    thr_actuator_map(&s, 32768, 32768, &drive, &freq);
    CHECK(drive > 10922 && drive <= 16384); /* above the rated 2000/3000 = 10922 */
    CHECK_EQ(freq, 1870);                   /* resonance x 1.1 at sharpness 1 */
    thr_actuator_map(&s, 32768, 32768, &drive, &freq);
    thr_actuator_map(&s, 32768, 32768, &drive, &freq);
    thr_actuator_map(&s, 32768, 32768, &drive, &freq);
    CHECK_EQ(drive, 10922); /* steady: the rating, not the clamp */
    /* a drop to 0: reverse-phase braking, then nothing */
    thr_actuator_map(&s, 0, 0, &drive, &freq);
    CHECK(drive < 0 && drive >= -16384);
    CHECK_EQ(freq, 1530); /* resonance x 0.9 at sharpness 0 */
    for (i = 0; i < 3u; i++) thr_actuator_map(&s, 0, 0, &drive, &freq);
    CHECK_EQ(drive, 0);
    /* small changes are followed without edges */
    thr_actuator_map(&s, 2000, 0, &drive, &freq);
    CHECK_EQ(drive, (int16_t)(2000u * 10922u >> 15));
    /* ERM: DC */
    s.kind = THR_ACTUATOR_KIND_ERM;
    thr_actuator_map(&s, 3000, 0, &drive, &freq);
    CHECK_EQ(freq, 0);
}

/* Over a random walk of levels the drive never leaves [-max, +max] nor exceeds the rating when steady. */
static void bounded_drive(void)
{
    thr_actuator_state s = lra();
    uint32_t seed = 12345, i, last_rise = 0;
    uint16_t previous = 0;
    for (i = 1; i < 20000u; i++) {
        int16_t drive;
        uint16_t freq, level, tone;
        seed = seed * 1103515245u + 12345u;
        level = (uint16_t)((seed >> 8) % 32769u);
        tone = (uint16_t)((seed >> 3) % 32769u);
        if (level > previous + 4096u) last_rise = i;
        previous = level;
        thr_actuator_map(&s, level, tone, &drive, &freq);
        CHECK(drive >= -16384 && drive <= 16384);
        if (i - last_rise >= 3u) CHECK(drive <= 10922); /* above the rating only during an overdrive */
    }
}

void actuator_tests(void)
{
    run_test("actuator limits and edges", limits_and_edges);
    run_test("actuator drive bounded", bounded_drive);
}
