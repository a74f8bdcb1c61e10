/* Actuator backends: intensity and sharpness (Q15) become a drive level (Q14 of max_mv, signed)
 * and a carrier frequency.
 *
 * - Steady drive: intensity 1 drives the channel's rated voltage (rated_mv); never above.
 * - Edges: a rise of more than 1/8 in one tick starts a short overdrive towards max_mv, a fall of
 *   more than 1/8 a short reverse-phase brake, so the mechanics follow a crisp edge. Sharpness
 *   sets how hard (half strength at sharpness 0, full at 1). |drive| never exceeds max_mv.
 * - LRA: the carrier sits at the resonance, shifted by sharpness over +-10 % (an LRA loses
 *   amplitude quickly off resonance, so the shift is small). ERM: DC (frequency 0).
 * Lengths: LRA edges 3 ms (about half a cycle at 170 Hz), ERM edges 10 ms (motor spin-up). */
#include "thr_internal.h"

#define EDGE_Q15 4096u /* 1/8 */

void thr_actuator_init(thr_core *core)
{
    unsigned c;
    for (c = 0; c < core->config->channel_count; c++) {
        const thr_channel_config *cfg = &core->config->channels[c];
        thr_actuator_state *st = &core->actuator[c];
        uint32_t edge_us = cfg->kind == THR_ACTUATOR_KIND_ERM ? 10000u : 3000u;
        uint32_t ticks = (edge_us + core->tick_us / 2u) / core->tick_us;
        st->kind = cfg->kind;
        st->resonant_dhz = cfg->resonant_dhz;
        st->max_mv = cfg->max_mv ? cfg->max_mv : 1u;
        st->rated_mv = cfg->rated_mv > st->max_mv ? st->max_mv : cfg->rated_mv;
        st->boost_len = (uint8_t)(ticks < 1u ? 1u : ticks > 255u ? 255u : ticks);
        st->last_level = 0;
        st->boost_ticks = 0;
        st->boost_q14 = 0;
    }
}

void thr_actuator_map(thr_actuator_state *st, uint16_t level_q15, uint16_t tone_q15, int16_t *drive_q14,
                      uint16_t *frequency_dhz)
{
    uint32_t ratio_q14 = ((uint32_t)st->rated_mv << 14) / st->max_mv; /* rated / max */
    uint32_t steady = (uint32_t)level_q15 * ratio_q14 >> 15;          /* Q14 */
    uint32_t last = (uint32_t)st->last_level * ratio_q14 >> 15;
    uint32_t strength = 16384u + ((uint32_t)tone_q15 >> 1); /* Q15: 0.5 .. 1 */
    if (level_q15 > st->last_level + EDGE_Q15) {
        st->boost_q14 = (int16_t)(steady + (((16384u - steady) * strength) >> 15));
        st->boost_ticks = st->boost_len;
    } else if ((uint32_t)level_q15 + EDGE_Q15 < st->last_level) {
        st->boost_q14 = (int16_t) - (int32_t)(((last - steady) * strength) >> 15);
        st->boost_ticks = st->boost_len;
    } else if (st->boost_ticks && st->boost_q14 < 0 && level_q15 > st->last_level) {
        st->boost_ticks = 0; /* output rises again: stop braking */
    }
    st->last_level = level_q15;
    if (st->boost_ticks) {
        st->boost_ticks--;
        *drive_q14 = st->boost_q14;
    } else {
        *drive_q14 = (int16_t)steady;
    }
    if (st->kind == THR_ACTUATOR_KIND_ERM) {
        *frequency_dhz = 0;
    } else {
        /* resonance x (0.9 + 0.2 x sharpness) */
        uint32_t f = ((uint32_t)st->resonant_dhz * (29491u + ((uint32_t)tone_q15 * 6554u >> 15)) + 16384u) >> 15;
        *frequency_dhz = (uint16_t)(f > 0xFFFFu ? 0xFFFFu : f);
    }
}
