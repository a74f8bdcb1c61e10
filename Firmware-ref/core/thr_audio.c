/* The board's sample output (SEMANTICS.md §6.4): AudioCustom events mixed from the committed
 * waveform objects they name. An event finds its object by resource ID at every tick, so moving
 * or freeing one never leaves a dangling pointer. Only with THR_AUDIO_SAMPLES. */
#include "thr_internal.h"

#if THR_AUDIO_SAMPLES

/* The samples of the committed object for `resource`, or none. */
static const int8_t *find_samples(const thr_core *core, uint32_t resource, uint32_t *count)
{
    unsigned i;
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        const thr_stored_timeline *tl = &core->timeline[i];
        const uint8_t *b = core->memory + tl->offset;
        if (tl->state == THR_TL_WAVEFORM && thr_get32(b + 4) == resource) {
            *count = tl->size - THR_WF_HEADER;
            return (const int8_t *)(const void *)(b + THR_WF_HEADER);
        }
    }
    return 0;
}

void thr_audio_add_event(thr_core *core, const thr_active *ev, uint32_t volume_q15)
{
    uint32_t count, k, j, n = core->audio_per_tick;
    const int8_t *samples;
    if (!ev->resource || !n) return;
    samples = find_samples(core, ev->resource, &count);
    if (!samples) return; /* not on the board: the event adds nothing (§6.4) */
    k = ev->tau / core->audio_period_us;
    core->audio_live |= 1u;
    for (j = 0; j < n && k + j < count; j++) {
        core->audio_mix[j] += (int32_t)samples[k + j] * 256 * (int32_t)volume_q15 >> 15;
    }
}

void thr_audio_end_tick(thr_core *core, uint32_t t, uint32_t safety_q15)
{
    int16_t out[THR_AUDIO_MAX_PER_TICK];
    unsigned j;
    uint8_t live = core->audio_live;
    /* silent ticks are not written, but for one after a sound, so a driver sees it end */
    core->audio_live = (uint8_t)((live & 1u) << 1);
    if (!live) return; /* nothing added: the mix is still all zero */
    for (j = 0; j < core->audio_per_tick; j++) {
        int32_t v = core->audio_mix[j] * (int32_t)safety_q15 / THR_Q15_ONE;
        out[j] = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
        core->audio_mix[j] = 0; /* ready for the next tick */
    }
    if (core->hal->audio_write) core->hal->audio_write(core->hal->ctx, t, out, core->audio_per_tick);
}

void thr_audio_init(thr_core *core)
{
    uint32_t rate = core->config->audio_rate_hz, tick_hz = core->config->tick_hz;
    core->audio_per_tick = 0;
    core->audio_period_us = 1;
    /* a rate that gives whole-microsecond periods and whole samples per tick (WAVEFORM.md §1) */
    if (rate == 0u || 1000000u % rate != 0u || tick_hz == 0u || rate % tick_hz != 0u) return;
    if (rate / tick_hz > THR_AUDIO_MAX_PER_TICK) return;
    core->audio_per_tick = (uint16_t)(rate / tick_hz);
    core->audio_period_us = 1000000u / rate;
}

#endif
