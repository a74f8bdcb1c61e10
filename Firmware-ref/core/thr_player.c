/* Players: commands, loop passes, authored and run-time control layers, applying timeline records
 * as the pattern position reaches them (Protocol/SEMANTICS.md §3, §7). Integer maths only. */
#include <string.h>

#include "thr_internal.h"

#define CTL_NONE  0u
#define CTL_STEP  1u
#define CTL_CURVE 2u

uint8_t thr_ctl_slot_of_timeline_code(uint8_t code)
{
    static const uint8_t slots[12] = { THR_CTL_INTENSITY,    THR_CTL_SHARPNESS,   THR_CTL_ATTACK,
                                       THR_CTL_DECAY,        THR_CTL_RELEASE,     THR_CTL_VOLUME,
                                       THR_CTL_NONE,         THR_CTL_NONE,        THR_CTL_NONE,
                                       THR_CTL_AUDIO_ATTACK, THR_CTL_AUDIO_DECAY, THR_CTL_AUDIO_RELEASE };
    return code < 12u ? slots[code] : (uint8_t)THR_CTL_NONE;
}

/* The controls whose range is 0..1 (the others: -1..1). */
THR_INLINE int slot_is_unit(unsigned slot)
{
    return slot == THR_CTL_INTENSITY || slot == THR_CTL_VOLUME || (THR_CHANNEL_PAN && slot == THR_CTL_PAN);
}
static int32_t neutral(unsigned slot)
{
    return THR_CHANNEL_PAN && slot == THR_CTL_PAN ? THR_PAN_UNSET : slot_is_unit(slot) ? THR_Q15_ONE : 0;
}

static int32_t timeline_value(unsigned slot, uint8_t raw)
{
    return slot_is_unit(slot) ? (int32_t)thr_uq8_to_q15(raw) : thr_sq8_to_q15(raw);
}

/* ---------------- authored layer (per pass) ---------------- */

static void curve_read_next(const thr_core *core, const thr_player *pl, thr_ctl *c, unsigned slot)
{
    const thr_stored_timeline *tl = thr_timeline_at(core, pl->handle);
    uint32_t delta;
    uint8_t raw;
    if (c->left == 0u ||
        !thr_tl_read_point(thr_timeline_bytes(core, pl->handle), tl->info.records_end, &c->next, &delta, &raw)) {
        c->has_next = 0;
        return;
    }
    c->left--;
    c->t1 = c->t1 + (int32_t)delta; /* validated: start + point time <= MAX_TICKS */
    c->v1 = timeline_value(slot, raw);
    c->has_next = 1;
}

/* Moves the curve's segment forward so that t0 <= p < t1 (or past the last point). */
static void curve_advance(const thr_core *core, const thr_player *pl, thr_ctl *c, unsigned slot, uint32_t p_ms)
{
    while (c->has_next && (c->t1 < 0 || (uint32_t)c->t1 <= p_ms)) {
        c->t0 = c->t1;
        c->v0 = c->v1;
        curve_read_next(core, pl, c, slot);
    }
}

static void apply_control(const thr_core *core, thr_player *pl, const thr_record *rec)
{
    uint8_t slot = thr_ctl_slot_of_timeline_code(rec->control);
    thr_ctl *c;
    if (slot == THR_CTL_NONE) return;
    c = &pl->ctl[slot];
    THR_KEEP(c);
    pl->ctl_used |= (uint16_t)(1u << slot);
    if (rec->kind == THR_REC_PARAMETER) {
        c->mode = CTL_STEP;
        c->v0 = timeline_value(slot, rec->value);
        c->has_next = 0;
        return;
    }
    if (rec->point_count == 0u) return; /* a curve without points has no effect (§3.3) */
    c->mode = CTL_CURVE;
    c->next = rec->points;
    c->left = (uint16_t)rec->point_count;
    c->t1 = (int32_t)rec->start;
    curve_read_next(core, pl, c, slot);
    c->t0 = c->t1;
    c->v0 = c->v1;
}

/* v0 + (v1 - v0) x fraction, fraction in Q15 (|v1 - v0| <= 65536: no overflow with f/2 in Q14). */
static int32_t lerp(int32_t v0, int32_t v1, uint32_t fraction_q15)
{
    return v0 + (int32_t)(((v1 - v0) * (int32_t)(fraction_q15 >> 1)) / 16384);
}

THR_NOINLINE static int32_t ctl_value(const thr_ctl *c, unsigned slot, uint32_t p_ms, uint32_t p_frac)
{
    uint32_t into, span;
    if (c->mode == CTL_NONE) return neutral(slot);
    if (c->mode == CTL_STEP || !c->has_next || (c->t0 >= 0 && p_ms < (uint32_t)c->t0) || c->t1 <= c->t0) return c->v0;
    /* linear between (t0, v0) and (t1, v1) at p = p_ms + p_frac / 256000, in 1/8 ms steps */
    span = (uint32_t)(c->t1 - c->t0);
    into = p_ms - (uint32_t)c->t0;
    if (span < 0x10000000u) {
        span <<= 3;
        /* p_frac / 32000 (1/8 ms) for p_frac < 256000, without a division: exact for every such value
         * (checked exhaustively by tests/test_render.c's frac_to_eighth_ms test) */
        into = (into << 3) + THR_FRAC_TO_EIGHTH_MS(p_frac);
    }
    return lerp(c->v0, c->v1, thr_ramp(into, span));
}

/* ---------------- run-time layer (per player, board time) ---------------- */

#define due thr_due

static int32_t rt_curve_value(const thr_runtime *rt, uint32_t t)
{
    uint32_t e = t - rt->curve_at;
    unsigned i;
    if (e <= rt->curve_t[0]) return rt->curve_v[0];
    for (i = 1; i < rt->curve_n; i++) {
        if (e < rt->curve_t[i]) {
            return lerp(rt->curve_v[i - 1], rt->curve_v[i],
                        thr_ramp(e - rt->curve_t[i - 1], rt->curve_t[i] - rt->curve_t[i - 1]));
        }
    }
    return rt->curve_v[rt->curve_n - 1u];
}

/* The run-time step of a slot from board time `at` on (a pending step come due, or a curve replaced). */
THR_NOINLINE static void step_set(thr_runtime *rt, unsigned slot, int32_t value, uint32_t at)
{
    rt->step[slot] = value;
    rt->step_at[slot] = at;
    rt->has_step |= (uint16_t)(1u << slot);
}

static void runtime_evaluate(thr_runtime *rt, uint32_t t)
{
    unsigned s;
    if (rt->pending_n) {
        for (s = 0; s < THR_RT_PENDING; s++) {
            thr_rt_step *p = &rt->pending[s];
            if (p->used && due(p->at, t)) {
                step_set(rt, p->slot, p->value, p->at);
                p->used = 0;
                rt->pending_n--;
            }
        }
    }
    if (rt->has_step == 0u && rt->curve_slot == THR_CTL_NONE) return; /* all neutral (set at init) */
    for (s = 0; s < THR_RT_COUNT; s++) {
        int curve = rt->curve_slot == s && due(rt->curve_at, t);
        int step = ((unsigned)rt->has_step >> s) & 1u ? 1 : 0;
        if (curve && step) {
            int32_t order = (int32_t)(rt->step_at[s] - rt->curve_at);
            if (order > 0 || (order == 0 && (((unsigned)rt->step_after_curve >> s) & 1u) != 0u)) curve = 0;
        }
        rt->value[s] = curve ? rt_curve_value(rt, t) : step ? rt->step[s] : neutral(s);
    }
}

/* ---------------- events ---------------- */

THR_NOINLINE thr_player *thr_player_at(thr_core *core, unsigned player)
{
    return &core->player[player];
}

static uint32_t board_us_since(const thr_player *pl, uint32_t p_ms, uint32_t p_frac, uint32_t from_ms)
{
    return thr_pattern_to_board_us(p_ms - from_ms, p_frac, pl->rate_q8);
}

static void activate_event(thr_core *core, uint8_t player, uint8_t pass, const thr_record *rec)
{
    thr_player *pl = thr_player_at(core, player);
    const thr_pass *ps = &pl->pass[pass];
    thr_active *ev;
    uint32_t tau = board_us_since(pl, ps->p_ms, ps->p_frac, rec->start);
    uint32_t end = rec->start + rec->duration;
    /* Cheap test for events already over (a seek or a late start passes many). */
    switch (rec->event_type) {
    case THR_EV_TRANSIENT:
        if (tau >= THR_TRANSIENT_US) return;
        break;
    case THR_EV_AUDIO_CUSTOM:
        if (rec->duration <= 4294967u && tau >= rec->duration * 1000u) return;
        break;
    default:
        if (ps->p_ms >= end && board_us_since(pl, ps->p_ms, ps->p_frac, end) >= 1000000u) return;
        if (!(rec->shape_flags & 0x04u) && tau >= 2000000u) return;
        break;
    }
    if (core->active_count >= THR_MAX_ACTIVE) {
        core->dropped_events++;
        return;
    }
    ev = &core->active[core->active_count++];
    THR_KEEP(ev);
    memset(ev, 0, sizeof *ev);
    ev->tau = tau;
    ev->end_ms = end;
    ev->type = rec->event_type;
    ev->player = player;
    ev->pass = pass;
    ev->level = thr_uq8_to_q15(rec->level);
    ev->tone = thr_uq8_to_q15(rec->tone);
    ev->flags = (uint8_t)(((rec->shape_flags & 0x04u) ? THR_AF_SUSTAINED : 0u) |
                          (rec->event_type <= THR_EV_CONTINUOUS ? THR_AF_HAPTIC : 0u));
    ev->decay_raw = rec->decay;
    ev->release_raw = rec->release;
    if (rec->event_type == THR_EV_AUDIO_CUSTOM) {
        /* its length is not scaled by the rate (§6.2) */
        ev->r_us = rec->duration > 4294967u ? 0xFFFFFFFFu : rec->duration * 1000u;
#if THR_AUDIO_SAMPLES
        ev->resource = thr_tl_waveform_resource(thr_timeline_bytes(core, pl->handle),
                                                &thr_timeline_at(core, pl->handle)->info, rec->waveform);
#endif
    } else {
        ev->a_us = rec->attack; /* raw until the attack is worked out at the first render */
    }
}

void thr_player_free_events(thr_core *core, uint8_t player, uint8_t pass)
{
    unsigned i = 0;
    while (i < core->active_count) {
        thr_active *ev = &core->active[i];
        THR_KEEP(ev);
        if (ev->player == player && (pass == 0xFFu || ev->pass == pass)) {
            *ev = core->active[--core->active_count];
        } else {
            i++;
        }
    }
}

/* ---------------- passes ---------------- */

static void pass_reset(thr_pass *ps, uint32_t p_ms, uint32_t p_frac)
{
    ps->p_ms = p_ms;
    ps->p_frac = p_frac;
    ps->live = 1;
}

/* A fresh authored control state: every control neutral. */
static void controls_reset(thr_player *pl)
{
    unsigned s;
    memset(pl->ctl, 0, sizeof pl->ctl);
    pl->ctl_used = 0;
    for (s = 0; s < THR_CTL_COUNT; s++) pl->value[s] = neutral(s);
}

/* The newest pass reads from the first record. */
THR_NOINLINE static void reading_reset(thr_core *core, thr_player *pl)
{
    pl->cursor = thr_timeline_at(core, pl->handle)->info.records;
    pl->cursor_base = 0;
    pl->reading = 1;
    pl->next_known = 0;
}

static int before_loop_end(const thr_player *pl, uint32_t start_ms)
{
    return !pl->looping || start_ms < pl->loop_ms;
}

/* Applies every record whose start is at or before the newest pass's position. */
static void pass_apply(thr_core *core, uint8_t player)
{
    thr_player *pl = thr_player_at(core, player);
    const thr_pass *ps = &pl->pass[pl->current];
    const thr_stored_timeline *tl = &core->timeline[pl->handle];
    const uint8_t *bytes;
    thr_record rec;
    THR_KEEP(ps);
    THR_KEEP(tl);
    if (!pl->reading || (pl->next_known && pl->next_start > ps->p_ms)) return; /* nothing due: cheap */
    bytes = thr_timeline_bytes(core, pl->handle);
    while (pl->cursor < tl->info.records_end) {
        if (!thr_tl_read_record(bytes, &tl->info, pl->cursor, pl->cursor_base, &rec)) break;
        if (rec.start > ps->p_ms) {
            pl->next_start = rec.start;
            pl->next_known = 1;
            return;
        }
        if (!before_loop_end(pl, rec.start)) break;
        pl->cursor = rec.next;
        pl->cursor_base = rec.start;
        if (rec.kind == THR_REC_EVENT) {
            activate_event(core, player, pl->current, &rec);
        } else {
            apply_control(core, pl, &rec);
        }
    }
    pl->reading = 0;
}

static int pass_events(const thr_core *core, uint8_t player, uint8_t pass)
{
    unsigned i;
    for (i = 0; i < core->active_count; i++) {
        if (core->active[i].player == player && core->active[i].pass == pass) return 1;
    }
    return 0;
}

/* Loop: when the newest pass reaches the loop end, the next pass starts (its tails overlap). The
 * authored control state carries on (§7.3): its times move into the new pass's time base. */
static void player_loop(thr_core *core, uint8_t player)
{
    thr_player *pl = thr_player_at(core, player);
    unsigned guard;
    for (guard = 0; guard < THR_MAX_PASSES; guard++) {
        thr_pass *cur = &pl->pass[pl->current];
        uint32_t i, next = THR_MAX_PASSES;
        THR_KEEP(cur);
        if (!pl->looping || cur->p_ms < pl->loop_ms) return;
        for (i = 0; i < THR_MAX_PASSES; i++) {
            if (!pl->pass[i].live) {
                next = i;
                break;
            }
        }
        if (next == THR_MAX_PASSES) {
            /* every pass still sounds: the oldest one (after the current, round robin) gives way */
            next = (pl->current + 1u) % THR_MAX_PASSES;
            thr_player_free_events(core, player, (uint8_t)next);
        }
        pass_reset(&pl->pass[next], cur->p_ms - pl->loop_ms, cur->p_frac);
        pl->current = (uint8_t)next;
        for (i = 0; i < THR_CTL_COUNT; i++) {
            thr_ctl *c = &pl->ctl[i];
            /* times are >= -MAX_TICKS: a few passes back at most before being superseded */
            c->t0 = c->t0 > INT32_MIN / 2 ? c->t0 - (int32_t)pl->loop_ms : c->t0;
            c->t1 = c->t1 > INT32_MIN / 2 ? c->t1 - (int32_t)pl->loop_ms : c->t1;
        }
        reading_reset(core, pl);
        pass_apply(core, player);
    }
}

/* A player that ends by itself (its pattern played out, or a STOP fell due) records that it
 * finished; the link reports it to the host (PLAYER_FINISHED) when its send queue has room. */
static void player_end(thr_core *core, uint8_t player, uint32_t t, int finished)
{
    thr_player *pl = thr_player_at(core, player);
    thr_player_free_events(core, player, 0xFFu);
    if (pl->state != THR_PLAYER_IDLE) core->timeline[pl->handle].users--; /* counted up by thr_player_start */
    pl->state = THR_PLAYER_IDLE;
    pl->action_pending = 0;
    if (finished) {
        pl->finished_handle = (uint8_t)(pl->handle + 1u);
        pl->finished_at = t;
        core->reports = 1;
    }
}

/* Starts playing from a pattern position given in us, at board time t (late by `late` us). */
static void player_begin(thr_core *core, uint8_t player, uint32_t position_us, uint32_t late)
{
    thr_player *pl = thr_player_at(core, player);
    uint32_t units;
    if (late > 1000000u) late = 1000000u; /* at most a tick in practice */
    units = (position_us % 1000u) * 256u + late * pl->rate_q8;
    uint32_t p_ms = position_us / 1000u + (uint32_t)(units / THR_FRAC_PER_MS);
    unsigned i;
    thr_player_free_events(core, player, 0xFFu);
    for (i = 0; i < THR_MAX_PASSES; i++) pl->pass[i].live = 0;
    pl->current = 0;
    pass_reset(&pl->pass[0], p_ms, (uint32_t)(units % THR_FRAC_PER_MS));
    controls_reset(pl);
    reading_reset(core, pl);
    pl->state = THR_PLAYER_PLAYING;
}

/* An action that is pending and due: taken (no longer pending). */
THR_INLINE int take(thr_player *pl, unsigned action, uint32_t t)
{
    if (!(pl->action_pending & (1u << action)) || !due(pl->action_at[action], t)) return 0;
    pl->action_pending &= (uint8_t) ~(1u << action);
    return 1;
}

/* Out of line (12 bytes smaller in the budget build): the tick calls it only while an action waits. */
THR_NOINLINE static void do_actions(thr_core *core, uint8_t player, uint32_t t)
{
    thr_player *pl = thr_player_at(core, player);
    if (take(pl, THR_ACT_STOP, t)) {
        player_end(core, player, t, 1);
        return;
    }
    if (take(pl, THR_ACT_SEEK, t)) {
        if (pl->state == THR_PLAYER_PLAYING || pl->state == THR_PLAYER_PAUSED) {
            uint8_t state = pl->state;
            player_begin(core, player, pl->seek_to_us, t - pl->action_at[THR_ACT_SEEK]);
            pl->state = state;
        } else {
            pl->start_pos_us = pl->seek_to_us;
        }
    }
    if (take(pl, THR_ACT_PAUSE, t) && pl->state == THR_PLAYER_PLAYING) pl->state = THR_PLAYER_PAUSED;
    if (take(pl, THR_ACT_RESUME, t) && pl->state == THR_PLAYER_PAUSED) pl->state = THR_PLAYER_PLAYING;
}

/* A PLAYER_CHANNELS whose time has come: the player's events sound on the new set from this tick
 * on, where they are (SEMANTICS.md §12.1). */
THR_NOINLINE static void channels_take(thr_player *pl, uint32_t t)
{
    if (!pl->next_mask || !due(pl->next_channels_at, t)) return;
    pl->channel_mask = pl->next_mask;
    pl->next_mask = 0;
#if THR_CHANNEL_PAN
    pl->channel_n = pl->next_channel_n;
    thr_copy(pl->channel, pl->next_channel, pl->channel_n);
#endif
}

/* Per tick, before rendering: commands due, records reached, controls evaluated. */
void thr_players_tick(thr_core *core, uint32_t t)
{
    uint8_t p;
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        thr_player *pl = &core->player[p];
        unsigned i, s;
        THR_KEEP(pl);
        channels_take(pl, t);
        if (pl->state == THR_PLAYER_IDLE) continue;
        if (pl->action_pending) do_actions(core, p, t);
        if (pl->state == THR_PLAYER_SCHEDULED) {
            if (!due(pl->start_at, t)) continue;
            player_begin(core, p, pl->start_pos_us, t - pl->start_at);
        }
        if (pl->state != THR_PLAYER_PLAYING) continue;
        pass_apply(core, p);
        player_loop(core, p);
        runtime_evaluate(&pl->rt, t);
        for (i = 0; i < THR_MAX_PASSES; i++) {
            if (pl->pass[i].live && i != pl->current && !pass_events(core, p, (uint8_t)i)) pl->pass[i].live = 0;
        }
        {
            const thr_pass *ps = &pl->pass[pl->current];
            unsigned used;
            THR_KEEP(ps);
            for (s = 0, used = pl->ctl_used; used; s++, used >>= 1) { /* the slots in use only */
                thr_ctl *c = &pl->ctl[s];
                if (!(used & 1u)) continue;
                if (c->mode == CTL_CURVE) curve_advance(core, pl, c, s, ps->p_ms);
                pl->value[s] = ctl_value(c, s, ps->p_ms, ps->p_frac);
            }
        }
        /* finished: played once, nothing left to read or sounding, and the pattern's end reached */
        if (!pl->looping && !pl->reading && pl->pass[pl->current].p_ms >= core->timeline[pl->handle].info.duration &&
            !pass_events(core, p, pl->current)) {
            player_end(core, p, t, 1);
        }
    }
}

/* This tick's length in trimmed board us (CLOCK_TRIM, SEMANTICS.md §1.6): tick_us, plus the whole
 * us that trim_ppb / (1000 tick_hz) us a tick has added up to. Exact over any run: what is not yet
 * a whole us stays in trim_acc. A loop turns |trim_ppb| / (1000 tick_hz) + 1 times a tick at most:
 * once for a crystal's trim (|trim_ppb| <= 10^6 at 1 kHz), up to 41 for an RC oscillator 4 % off. */
static uint32_t trimmed_tick_us(thr_core *core)
{
    int32_t unit = (int32_t)(1000u * core->config->tick_hz), acc = core->trim_acc + core->trim_ppb;
    uint32_t us = core->tick_us;
    while (acc >= unit) {
        acc -= unit;
        us++;
    }
    while (acc < 0) {
        acc += unit;
        us--;
    }
    core->trim_acc = acc;
    return us;
}

/* After rendering: every playing pass moves on by one tick of (trimmed) board time times the rate. */
THR_NOINLINE void thr_players_advance(thr_core *core)
{
    uint8_t p;
    uint32_t tick = trimmed_tick_us(core);
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        thr_player *pl = &core->player[p];
        unsigned i;
        uint32_t step, step_ms;
        if (pl->state != THR_PLAYER_PLAYING) continue;
        step = tick * pl->rate_q8;        /* <= (1.04e6 + 1) * 4096 < 2^32 (THR_CLOCK_TRIM_MAX_PPB) */
        step_ms = step / THR_FRAC_PER_MS; /* whole ms and the rest, once per player (not per pass) */
        step -= step_ms * THR_FRAC_PER_MS;
        for (i = 0; i < THR_MAX_PASSES; i++) {
            thr_pass *ps = &pl->pass[i];
            if (!ps->live) continue;
            ps->p_frac += step;
            ps->p_ms += step_ms;
            if (ps->p_frac >= THR_FRAC_PER_MS) {
                ps->p_frac -= THR_FRAC_PER_MS;
                ps->p_ms++;
            }
            if (ps->p_ms > THR_MAX_TICKS) ps->p_ms = THR_MAX_TICKS; /* ~24.8 days: hold */
        }
    }
}

/* ---------------- commands ---------------- */

THR_NOINLINE static thr_player *player_of(thr_core *core, uint8_t player)
{
    return player < THR_MAX_PLAYERS ? thr_player_at(core, player) : 0;
}

thr_status thr_player_start(thr_core *core, uint8_t player, uint8_t handle, uint32_t at, uint32_t position_us)
{
    thr_player *pl = player_of(core, player);
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (handle >= THR_MAX_TIMELINES || core->timeline[handle].state != THR_TL_READY) return THR_STATUS_NO_SUCH_TIMELINE;
    if (!core->engine_running) return THR_STATUS_ENGINE_STOPPED;
    if (pl->state != THR_PLAYER_IDLE) player_end(core, player, at, 0);
    thr_player_routing_reset(pl); /* when the start is handled: a PLAYER_CHANNELS after it applies */
    pl->handle = handle;
    core->timeline[handle].users++;
    pl->state = THR_PLAYER_SCHEDULED;
    pl->start_at = at;
    pl->start_pos_us = position_us;
    pl->action_pending = 0;
    return THR_STATUS_OK;
}

/* An action at board time `at`; BAD_ARGUMENT (nothing kept) for an idle player. */
static thr_status schedule(thr_core *core, uint8_t player, unsigned action, uint32_t at)
{
    thr_player *pl = player_of(core, player);
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (pl->state == THR_PLAYER_IDLE) return THR_STATUS_BAD_ARGUMENT;
    pl->action_at[action] = at;
    pl->action_pending |= (uint8_t)(1u << action);
    return THR_STATUS_OK;
}

thr_status thr_player_stop(thr_core *core, uint8_t player, uint32_t at)
{
    thr_status s = schedule(core, player, THR_ACT_STOP, at);
    return s == THR_STATUS_BAD_ARGUMENT ? THR_STATUS_OK : s; /* an idle player is stopped already */
}

thr_status thr_player_pause(thr_core *core, uint8_t player, uint32_t at)
{
    return schedule(core, player, THR_ACT_PAUSE, at);
}
thr_status thr_player_resume(thr_core *core, uint8_t player, uint32_t at)
{
    return schedule(core, player, THR_ACT_RESUME, at);
}

thr_status thr_player_seek(thr_core *core, uint8_t player, uint32_t position_us, uint32_t at)
{
    thr_status s = schedule(core, player, THR_ACT_SEEK, at);
    if (s == THR_STATUS_OK) thr_player_at(core, player)->seek_to_us = position_us;
    return s;
}

thr_status thr_player_loop(thr_core *core, uint8_t player, int enabled, uint32_t loop_end_us)
{
    thr_player *pl = player_of(core, player);
    uint32_t length_us;
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (!enabled) {
        pl->looping = 0;
        return THR_STATUS_OK;
    }
    if (pl->state == THR_PLAYER_IDLE) return THR_STATUS_BAD_ARGUMENT;
    length_us = loop_end_us;
    if (length_us == 0u) {
        uint32_t end_ms = thr_timeline_at(core, pl->handle)->info.event_end;
        if (end_ms == 0u) { /* no positive loop length: plays once (§7.3) */
            pl->looping = 0;
            return THR_STATUS_OK;
        }
        pl->loop_ms = end_ms;
    } else {
        /* whole ms (the timeline's tick); passes shorter than 1 ms play as 1 ms */
        pl->loop_ms = (length_us + 500u) / 1000u;
        if (pl->loop_ms == 0u) pl->loop_ms = 1u;
    }
    pl->looping = 1;
    return THR_STATUS_OK;
}

thr_status thr_player_rate(thr_core *core, uint8_t player, uint16_t rate_q8)
{
    thr_player *pl = player_of(core, player);
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (rate_q8 < 1u || rate_q8 > 4096u) return THR_STATUS_BAD_ARGUMENT;
    pl->rate_q8 = rate_q8;
    return THR_STATUS_OK;
}

thr_status thr_player_mute(thr_core *core, uint8_t player, int muted)
{
    thr_player *pl = player_of(core, player);
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    pl->muted = (uint8_t)(muted != 0);
    return THR_STATUS_OK;
}

thr_status thr_player_cancel(thr_core *core, uint8_t player)
{
    thr_player *pl = player_of(core, player);
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (pl->state != THR_PLAYER_IDLE) player_end(core, player, core->now, 0);
    return THR_STATUS_OK;
}

/* ---------------- channels and pan (SEMANTICS.md §12) ---------------- */

#if THR_CHANNEL_PAN
/* The pan as never set since the start: no step, none waiting, no curve (§12.2). */
static void pan_reset(thr_runtime *rt)
{
    unsigned i;
    for (i = 0; i < THR_RT_PENDING; i++) {
        if (rt->pending[i].used && rt->pending[i].slot == THR_CTL_PAN) {
            rt->pending[i].used = 0;
            rt->pending_n--;
        }
    }
    rt->has_step &= (uint16_t) ~(1u << THR_CTL_PAN);
    if (rt->curve_slot == THR_CTL_PAN) rt->curve_slot = THR_CTL_NONE;
    rt->value[THR_CTL_PAN] = THR_PAN_UNSET;
}
#endif

void thr_player_routing_reset(thr_player *pl)
{
    pl->channel_mask = 0xFF;
    pl->next_mask = 0;
#if THR_CHANNEL_PAN
    pl->channel_n = 0;
    pan_reset(&pl->rt);
#endif
}

thr_status thr_player_channels(thr_core *core, uint8_t player, uint32_t at, uint8_t count, const uint8_t *channels)
{
    thr_player *pl = player_of(core, player);
    unsigned i, mask = 0;
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    for (i = 0; i < count; i++) {
        unsigned bit = 1u << (channels[i] & 7u);
        if (channels[i] == THR_CHANNEL_GAP) continue; /* a place on the pan line, no channel (§12.1) */
        if (channels[i] >= core->config->channel_count || (mask & bit)) return THR_STATUS_BAD_ARGUMENT;
        mask |= bit;
    }
#if THR_CHANNEL_PAN
    if (count > THR_MAX_CHANNELS) return THR_STATUS_BAD_ARGUMENT; /* gaps and channels: the order's room */
#endif
    if (count && !mask) return THR_STATUS_BAD_ARGUMENT; /* gaps only: a set with no channel */
    pl->next_mask = (uint8_t)(count ? mask : 0xFFu);    /* never 0: 0 is "nothing waiting" */
    pl->next_channels_at = at;
#if THR_CHANNEL_PAN
    /* count <= channel_count <= THR_MAX_CHANNELS now: every index was below it, none twice */
    pl->next_channel_n = count;
    thr_copy(pl->next_channel, channels, count);
#endif
    /* due already (at_time 0 is now): taken here, so a later change cannot replace it unplayed */
    channels_take(pl, core->now);
    return THR_STATUS_OK;
}

thr_status thr_clock_trim(thr_core *core, int32_t rate_ppb)
{
    if (rate_ppb > THR_CLOCK_TRIM_MAX_PPB || rate_ppb < -THR_CLOCK_TRIM_MAX_PPB) return THR_STATUS_BAD_ARGUMENT;
    core->trim_ppb = rate_ppb; /* trim_acc goes on: a refined trim loses nothing already counted */
    return THR_STATUS_OK;
}

/* A run-time slot the board does not render: the pan of a build without THR_CHANNEL_PAN is not
 * supported (said, not ignored); anything else is no control at all. */
static thr_status slot_refused(unsigned slot)
{
    return slot == THR_CTL_PAN ? THR_STATUS_NOT_SUPPORTED : THR_STATUS_BAD_ARGUMENT;
}

/* Out of line: two commands share it, never the tick. */
THR_NOINLINE static int32_t clamp_control(unsigned slot, int32_t v)
{
    return thr_clamp_q15(v, slot_is_unit(slot) ? 0 : -THR_Q15_ONE);
}

thr_status thr_player_param(thr_core *core, uint8_t player, uint8_t slot, int32_t value_q15, uint32_t at)
{
    thr_player *pl = player_of(core, player);
    thr_runtime *rt;
    unsigned i, oldest = 0;
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (slot >= THR_RT_COUNT) return slot_refused(slot);
    rt = &pl->rt;
    THR_KEEP(rt);
    for (i = 0; i < THR_RT_PENDING; i++) {
        if (!rt->pending[i].used) break;
        if ((int32_t)(rt->pending[i].at - rt->pending[oldest].at) < 0) oldest = i;
    }
    if (i == THR_RT_PENDING) {
        /* queue full: the earliest pending step takes effect now rather than being lost */
        thr_rt_step *p = &rt->pending[oldest];
        THR_KEEP(p);
        step_set(rt, p->slot, p->value, p->at);
        i = oldest;
    }
    rt->pending[i].at = at;
    rt->pending[i].value = clamp_control(slot, value_q15);
    rt->pending[i].slot = slot;
    if (!rt->pending[i].used) rt->pending_n++;
    rt->pending[i].used = 1;
    rt->step_after_curve |= (uint16_t)(1u << slot);
    return THR_STATUS_OK;
}

thr_status thr_player_curve(thr_core *core, uint8_t player, uint8_t slot, uint32_t at, uint8_t count,
                            const uint32_t *times_us, const int32_t *values_q15)
{
    thr_player *pl = player_of(core, player);
    thr_runtime *rt;
    unsigned i;
    if (!pl) return THR_STATUS_NO_SUCH_PLAYER;
    if (slot >= THR_RT_COUNT) return slot_refused(slot);
    if (count > THR_RT_CURVE_POINTS) return THR_STATUS_BAD_ARGUMENT;
    for (i = 1; i < count; i++) {
        if (times_us[i] < times_us[i - 1]) return THR_STATUS_BAD_ARGUMENT;
    }
    rt = &pl->rt;
    THR_KEEP(rt);
    if (count == 0u) return THR_STATUS_OK; /* no points: no effect */
    if (rt->curve_slot != THR_CTL_NONE && rt->curve_slot != slot) {
        /* one run-time curve per player: the one it replaces leaves its current value as a step */
        step_set(rt, rt->curve_slot, rt->value[rt->curve_slot], core->now);
    }
    rt->curve_slot = slot;
    rt->curve_at = at;
    rt->curve_n = count;
    for (i = 0; i < count; i++) {
        rt->curve_t[i] = times_us[i];
        rt->curve_v[i] = clamp_control(slot, values_q15[i]);
    }
    rt->step_after_curve &= (uint16_t) ~(1u << slot);
    return THR_STATUS_OK;
}
