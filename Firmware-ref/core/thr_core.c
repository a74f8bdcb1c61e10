/* The top of the core: initialisation, time, the tick scheduler (players, renderer, reports) and
 * the keep-alive safety. Calls every layer below; nothing calls it. */
#include <string.h>

#include "thr_flash.h"
#include "thr_internal.h"

#define MAX_CATCH_UP_TICKS 1000u

uint32_t thr_core_now(thr_core *core)
{
    core->now = core->hal->now_us(core->hal->ctx);
    return core->now;
}

thr_status thr_core_init(thr_core *core, const thr_hal *hal, const thr_board_config *config, uint8_t *memory,
                         uint32_t memory_size)
{
    unsigned p;
    memset(core, 0, sizeof *core);
    if (!hal || !config || !hal->now_us || config->tick_hz == 0u || config->tick_hz > 1000000u ||
        1000000u % config->tick_hz != 0u || config->channel_count == 0u || config->channel_count > THR_MAX_CHANNELS ||
        config->slot_count > THR_MAX_SLOTS)
        return THR_STATUS_BAD_ARGUMENT;
    core->hal = hal;
    core->config = config;
    core->memory = memory;
    core->memory_size = memory ? memory_size : 0u;
    core->tick_us = 1000000u / config->tick_hz;
    core->now = hal->now_us(hal->ctx);
    /* tick n renders board time n x tick_us (SEMANTICS.md §1.2) */
    core->next_tick = core->now % core->tick_us ? core->now - core->now % core->tick_us + core->tick_us : core->now;
    core->engine_running = 1;
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        thr_player *pl = thr_player_at(core, p);
        pl->rate_q8 = 256;
        pl->rt.curve_slot = THR_CTL_NONE;
        thr_player_routing_reset(pl);
        pl->rt.value[THR_CTL_INTENSITY] = 32768; /* neutral run-time layer */
        pl->rt.value[THR_CTL_VOLUME] = 32768;
    }
    thr_actuator_init(core);
#if THR_AUDIO_SAMPLES
    thr_audio_init(core);
#endif
    thr_link_init(core);
    thr_flash_init(core);
    if (core->flash.boot_slot != THR_SLOT_NONE) thr_slot_play(core, core->flash.boot_slot, 0, core->next_tick);
    return THR_STATUS_OK;
}

/* Keep-alive (DESIGN non-negotiable): output the host started fades to zero when the host has
 * been silent for keepalive_ms, then everything stops and the host is told. */
static int host_output_active(const thr_core *core)
{
    unsigned i;
    for (i = 0; i < THR_MAX_PLAYERS; i++) {
        if (core->player[i].state != THR_PLAYER_IDLE && core->player[i].host_owned) return 1;
    }
    for (i = 0; i < THR_MAX_CHANNELS; i++) {
        if (core->stream[i].active) return 1;
    }
    return 0;
}

/* Keep-alive (PROTOCOL.md §8): output the host started fades to zero when the host has been silent
 * for keepalive_ms; then the engine stops. Slots played at boot or by a trigger are not host output. */
static void keepalive(thr_core *core, uint32_t t)
{
    uint32_t limit = (uint32_t)core->config->keepalive_ms * 1000u;
    if (core->fading == THR_STOP_REASON_KEEPALIVE_LAPSED + 1u &&
        (int32_t)(core->link.last_rx_at - core->fade_start) > 0) {
        core->fading = 0; /* the host is back before the fade ended: no harm done */
    }
    if (!core->link.session || limit == 0u || core->fading) return;
    if ((int32_t)(t - core->link.last_rx_at) > (int32_t)limit && host_output_active(core)) {
        uint8_t payload[THR_FAULT_SIZE];
        thr_put_fault_fault(payload, THR_FAULT_KEEPALIVE_LAPSED);
        thr_put_fault_channel(payload, 255); /* the whole board */
        thr_put_fault_at_time(payload, t);
        thr_notify(core, THR_MSG_FAULT, payload, THR_FAULT_SIZE);
        thr_engine_fade_out(core, THR_STOP_REASON_KEEPALIVE_LAPSED);
    }
}

/* A channel muted for a missing driver is reported to each new host: the FAULT sent when it happened
 * went to no one, or to the host before. */
static void report_muted_channels(thr_core *core)
{
    uint8_t c;
    for (c = 0; c < core->config->channel_count; c++) {
        if ((unsigned)core->faulted >> c & 1u) thr_link_send_fault(core, THR_FAULT_ACTUATOR_MISSING, c, core->now);
    }
}

void thr_core_channel_fault(thr_core *core, uint8_t channel, thr_fault fault)
{
    uint8_t bit = (uint8_t)(1u << (channel & 7u));
    if (channel >= core->config->channel_count) return;
    thr_link_new_session_hook = report_muted_channels;
    core->faulted &= (uint8_t)~bit;
    if (fault == THR_FAULT_CLEAR) return; /* the chip is back */
    thr_link_send_fault(core, fault, channel, core->now);
    if (fault == THR_FAULT_ACTUATOR_MISSING) {
        core->faulted |= bit; /* that channel only: the rest of the board plays on */
    } else {
        core->fading = 0; /* over-current or heat: stop at once, no fade */
        thr_engine_stop(core, THR_STOP_REASON_FAULT);
    }
}

uint32_t thr_core_idle_us(thr_core *core)
{
    int32_t wait = (int32_t)(core->next_tick - thr_core_now(core));
    return core->link.ring_head != core->link.ring_tail || wait <= 0 ? 0u : (uint32_t)wait;
}

void thr_core_tick(thr_core *core)
{
    uint32_t t = core->next_tick;
#if THR_ACTUATOR_CALIBRATION
    if (core->calibrating) thr_link_calibrate_poll(core); /* once a tick: the driver never blocks */
#endif
    keepalive(core, t);
    if (core->fading) thr_engine_fade_step(core, t);
    thr_players_tick(core, t); /* commands due, records reached, controls evaluated */
    thr_render_tick(core, t);
    thr_players_advance(core);                /* passes move on by one tick times the rate */
    if (core->reports) thr_link_report(core); /* what players and the engine did, to the host */
    core->next_tick += core->tick_us;
}

void thr_core_poll(thr_core *core)
{
    unsigned n = 0;
    thr_core_now(core);
    thr_link_poll(core);
    while (thr_due(core->next_tick, core->now)) {
        if (n++ == MAX_CATCH_UP_TICKS) { /* far behind: skip to the present, do not replay */
            core->next_tick = core->now - (core->now - core->next_tick) % core->tick_us;
            n = 0;
        }
        thr_core_tick(core);
    }
}
