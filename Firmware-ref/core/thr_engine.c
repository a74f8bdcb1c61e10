/* The engine as a whole: a fade of all output to silence, then a stop of every player and stream.
 * Above the players and the renderer's streams; what happened is left for the link to report. */
#include "thr_internal.h"

THR_NOINLINE void thr_engine_fade_out(thr_core *core, thr_stop_reason reason)
{
    if (core->fading) return;
    core->fading = (uint8_t)(reason + 1u);
    core->fade_start = core->next_tick;
}

void thr_engine_fade_step(thr_core *core, uint32_t t)
{
    if (t - core->fade_start >= (uint32_t)core->config->fade_ms * 1000u) {
        thr_stop_reason reason = (thr_stop_reason)(core->fading - 1u);
        core->fading = 0;
        thr_engine_stop(core, reason);
    }
}

void thr_engine_stop(thr_core *core, thr_stop_reason reason)
{
    uint8_t p;
    for (p = 0; p < THR_MAX_PLAYERS; p++) thr_player_cancel(core, p);
    for (p = 0; p < THR_MAX_CHANNELS; p++) core->stream[p].active = 0;
    core->engine_running = 0;
    core->stopped_reason = (uint8_t)(reason + 1u); /* ENGINE_STOPPED, sent by thr_link_report */
    core->stopped_at = core->now;
    core->reports = 1;
}
