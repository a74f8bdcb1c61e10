/* The renderer: per tick and channel, the point value of every sounding event (transient shape,
 * continuous envelope, controls), mixed by Protocol/SEMANTICS.md §2, then the actuator mapping.
 * Fixed point: levels and gains in Q15 (32768 = 1), times in board microseconds. */
#include "thr_internal.h"

/* SEMANTICS.md §4.1: segment length in us at v = i/16. */
static const uint32_t envelope_table[17] = { 0,      4712,   10822,  18746,  29023,  42349,  59632,  82045,  111111,
                                             148805, 197688, 261081, 343292, 449907, 588169, 767472, 1000000 };

uint32_t thr_envelope_us(int32_t value_q15)
{
    uint32_t v = (uint32_t)thr_clamp_q15(value_q15, 0), i = v >> 11, frac;
    if (i > 15u) i = 15u;
    frac = v - (i << 11); /* 1/2048ths of a table step */
    return envelope_table[i] + (((envelope_table[i + 1u] - envelope_table[i]) * frac + 1024u) >> 11);
}

/* Segment value for an event: its own value + authored + run-time control, clamped (§4.4). */
static uint32_t segment_us(const thr_player *pl, const thr_active *ev, uint8_t raw, unsigned haptic_slot)
{
    unsigned slot = (ev->flags & THR_AF_HAPTIC) ? haptic_slot : haptic_slot + (THR_CTL_AUDIO_ATTACK - THR_CTL_ATTACK);
    int32_t v = (int32_t)thr_uq8_to_q15(raw) + pl->value[slot] + pl->rt.value[slot];
    return thr_envelope_us(v);
}

/* Gain of one event of player pl at this tick (Q15), or -1 when it is over for good; p_ms: its
 * pass's position. */
static int32_t event_gain(const thr_player *pl, thr_active *ev, uint32_t p_ms)
{
    uint32_t shape, rel;
    switch (ev->type) {
    case THR_EV_TRANSIENT: /* §5.1: full for the first half, then a linear fall */
        if (ev->tau >= THR_TRANSIENT_US) return -1;
        return ev->tau < THR_TRANSIENT_US / 2u ? THR_Q15_ONE
                                               : (int32_t)thr_ramp(THR_TRANSIENT_US - ev->tau, THR_TRANSIENT_US / 2u);
    case THR_EV_AUDIO_CUSTOM: return ev->tau >= ev->r_us ? -1 : THR_Q15_ONE;
    default: break;
    }
    if (!(ev->flags & THR_AF_ATTACK_KNOWN)) {
        ev->a_us = segment_us(pl, ev, (uint8_t)ev->a_us, THR_CTL_ATTACK);
        ev->flags |= THR_AF_ATTACK_KNOWN;
    }
    if (!(ev->flags & THR_AF_RELEASING) && p_ms >= ev->end_ms) {
        ev->rtau = thr_pattern_to_board_us(p_ms - ev->end_ms, pl->pass[ev->pass].p_frac, pl->rate_q8);
        ev->r_us = segment_us(pl, ev, ev->release_raw, THR_CTL_RELEASE);
        ev->flags |= THR_AF_RELEASING;
    }
    if (ev->tau < ev->a_us) {
        shape = thr_ramp(ev->tau, ev->a_us);
    } else if (ev->flags & THR_AF_SUSTAINED) {
        shape = THR_Q15_ONE;
    } else {
        uint32_t into;
        if (!(ev->flags & THR_AF_DECAY_KNOWN)) {
            ev->d_us = segment_us(pl, ev, ev->decay_raw, THR_CTL_DECAY);
            ev->flags |= THR_AF_DECAY_KNOWN;
        }
        into = ev->tau - ev->a_us;
        if (into >= ev->d_us) return -1; /* decayed to 0 (also D = 0) */
        shape = THR_Q15_ONE - thr_ramp(into, ev->d_us);
    }
    if (ev->flags & THR_AF_RELEASING) {
        if (ev->rtau >= ev->r_us) return -1; /* released (also R = 0) */
        rel = THR_Q15_ONE - thr_ramp(ev->rtau, ev->r_us);
        return (int32_t)((shape * rel) >> 15);
    }
    return (int32_t)shape;
}

typedef struct channel_mix {
    uint32_t intensity; /* sum of Q15 intensities */
    uint32_t weighted;  /* sum of intensity x sharpness, Q15 (rounded) */
    uint32_t audio;
} channel_mix;

/* What every event of one player shares at this tick: both control layers combined (§3.2), and
 * the sums of its events. */
typedef struct player_mix {
    channel_mix sums;
    uint32_t intensity; /* a_I x r_I, Q15 */
    uint32_t volume;    /* a_V x r_V, Q15 */
    int32_t tone;       /* a_S + r_S, Q15 */
    uint32_t sounding;  /* playing and not muted */
    uint32_t unused;    /* 32 bytes: a shift finds a player's */
} player_mix;

/* A pass that does not play at this tick (its player idle or paused, or the pass not live): its
 * position in pass_ms[] (a playing pass is at most THR_MAX_TICKS, so never this). */
#define NOT_PLAYING 0xFFFFFFFFu

/* Adds one sounding event (gain applied) into its player's sums: §3.2, clamp01(level x a x r) x gain
 * (a, r <= 1: no clamp needed); sharpness clamp01(s + a + r). */
THR_ACCESSOR uint32_t add_event(player_mix *m, const thr_active *ev, uint32_t gain)
{
    uint32_t level;
    if (ev->flags & THR_AF_HAPTIC) {
        uint32_t tone = (uint32_t)thr_clamp_q15((int32_t)ev->tone + m->tone, 0);
        level = ((uint32_t)ev->level * m->intensity >> 15) * gain >> 15;
        m->sums.intensity += level;
        m->sums.weighted += (level * tone + 16384u) >> 15;
    } else {
        level = ((uint32_t)ev->level * m->volume >> 15) * gain >> 15;
        m->sums.audio += level;
    }
    return level;
}

/* Every event but a steady one: in its attack, decay or release, a transient, an AudioCustom, one
 * whose attack is not worked out yet. Returns 0 when it is over for good (the caller drops it). Out
 * of line, so that the loop over the steady ones stays short. */
THR_NOINLINE static int render_event(thr_core *core, player_mix *m, thr_active *ev, uint32_t p_ms, uint32_t tick)
{
    int32_t gain = event_gain(&core->player[ev->player], ev, p_ms);
    if (gain < 0) return 0;
    if (m->sounding && gain > 0) {
        uint32_t level = add_event(m, ev, (uint32_t)gain);
#if THR_AUDIO_SAMPLES
        if (ev->type == THR_EV_AUDIO_CUSTOM) thr_audio_add_event(core, ev, level);
#else
        (void)level;
#endif
    }
    /* time moves on by one tick of board time (saturating) */
    ev->tau = ev->tau + tick < tick ? 0xFFFFFFFFu : ev->tau + tick;
    if (ev->flags & THR_AF_RELEASING) ev->rtau = ev->rtau + tick < tick ? 0xFFFFFFFFu : ev->rtau + tick;
    return 1;
}

#if THR_RENDER_RAMPS_INLINE && THR_RENDER_RAMP_RECIPROCAL
/* At a segment's first inline tick: the reciprocal thr_ramp_reciprocal divides with, in rtau (free
 * until the release begins, which takes the event off the inline path), and its shift. */
THR_NOINLINE static void segment_prepare(thr_active *ev, uint32_t length, unsigned segment)
{
    uint8_t k = 0;
    while (length > 0x1FFFFu) { /* thr_ramp_inline's shift */
        length >>= 1;
        k++;
    }
    ev->ramp_shift = k;
    ev->rtau = 0xFFFFFFFFu / length;
    ev->flags = (uint8_t)((ev->flags & ~(THR_AF_RECIP_ATTACK | THR_AF_RECIP_DECAY)) | segment);
}

/* thr_ramp_inline(x, length) of the event's attack or decay (segment: its THR_AF_RECIP_ flag). */
THR_ACCESSOR uint32_t segment_ramp(thr_active *ev, uint32_t x, uint32_t length, unsigned segment)
{
    unsigned k;
    if (!(ev->flags & segment)) segment_prepare(ev, length, segment);
    k = ev->ramp_shift;
    return thr_ramp_reciprocal(x >> k, length >> k, ev->rtau);
}
#endif

/* Adds a player's sums to the mix of a channel of its set (gain 1). */
static void mix_add(channel_mix *to, const channel_mix *from)
{
    to->intensity += from->intensity;
    to->weighted += from->weighted;
    to->audio += from->audio;
}

#if THR_CHANNEL_PAN
/* x gain / 32768, rounded down, for any 32-bit sum (a player's sum of levels exceeds 1 when its
 * events overlap: it is clipped only with the rest of the channel, §2.1). */
static uint32_t scaled(uint32_t x, uint32_t gain)
{
    return (x >> 15) * gain + ((x & 0x7FFFu) * gain >> 15);
}

/* Adds a player's sums to one channel's mix at the channel's pan gain (Q15). */
static void mix_gained(channel_mix *to, const channel_mix *from, uint32_t gain)
{
    to->intensity += scaled(from->intensity, gain);
    to->weighted += scaled(from->weighted, gain);
    to->audio += scaled(from->audio, gain);
}

/* The player's channel set, in pan order: channel k of it. */
static unsigned set_channel(const thr_player *pl, unsigned k)
{
    return pl->channel_n ? pl->channel[k] : k;
}

/* SEMANTICS.md §12.2: with the pan set and two channels or more, two neighbours of the ordered set
 * share the power: x = p (n - 1), i = floor(x) (n - 2 at p = 1), f = x - i, gains sqrt(1 - f) and
 * sqrt(f), each rounded to the nearest 1/32768 (x and f are exact in Q15); every other channel 0.
 * Once per player and tick. 0 (gains not written) when the pan does not apply: every channel of
 * the set has gain 1, as without the option (the channel mask). */
THR_NOINLINE static int pan_gains(const thr_player *pl, unsigned channels, uint16_t *gain)
{
    unsigned n = pl->channel_n ? pl->channel_n : channels, k, i;
    int32_t pan = pl->rt.value[THR_CTL_PAN];
    uint32_t x, f;
    if (pan < 0 || n == 1u) return 0; /* not set since the start (THR_PAN_UNSET), or one channel */
    for (k = 0; k < channels; k++) gain[k] = 0;
    x = (uint32_t)pan * (n - 1u); /* pan <= 32768, n <= 8: < 2^18 */
    i = x >> 15;
    if (i > n - 2u) i = n - 2u; /* p = 1: the last pair, f = 1 */
    f = x - (i << 15);
    k = set_channel(pl, i); /* a gap (THR_CHANNEL_GAP) takes its share of the power silently */
    if (k < channels) gain[k] = (uint16_t)thr_sqrt_q15(THR_Q15_ONE - f);
    k = set_channel(pl, i + 1u);
    if (k < channels) gain[k] = (uint16_t)thr_sqrt_q15(f);
    return 1;
}
#endif

/* Out of line: streams are rare, and inlined in the channel loop it costs 16 bytes more. */
static uint32_t stream_level(thr_core *core, unsigned channel, uint32_t t, uint32_t *tone)
{
    thr_stream *st = &core->stream[channel];
    uint32_t index;
    uint32_t fade_us = core->tick_us; /* PROTOCOL.md §5.3: to zero within one tick */
    THR_KEEP(st);
    if (!st->active || !thr_due(st->at, t)) return 0;
    index = (t - st->at) / st->interval_us;
    if (index < st->count) {
        *tone = thr_uq8_to_q15(st->sharp[index]);
        return thr_uq8_to_q15(st->amp[index]);
    }
    /* underrun: fade from the last value to 0 rather than hold it */
    if (!st->fading) {
        st->fading = 1;
        st->fade_at = st->at + (uint32_t)st->count * st->interval_us;
        st->fade_from = st->count ? thr_uq8_to_q15(st->amp[st->count - 1u]) : 0u;
        st->fade_tone = st->count ? thr_uq8_to_q15(st->sharp[st->count - 1u]) : 0u;
    }
    if (fade_us == 0u || t - st->fade_at >= fade_us) {
        st->active = 0;
        return 0;
    }
    *tone = st->fade_tone;
    return (uint32_t)st->fade_from * (THR_Q15_ONE - thr_ramp(t - st->fade_at, fade_us)) >> 15;
}

void thr_render_tick(thr_core *core, uint32_t t)
{
    /* §12: each player's events are summed before its channel gains (they share them); the sums
     * are gained once per player, channel and tick, not per event */
    player_mix mixes[THR_MAX_PLAYERS];
    uint32_t pass_ms[THR_MAX_PLAYERS * THR_MAX_PASSES]; /* each pass's position, or NOT_PLAYING */
#if THR_CHANNEL_PAN
    uint16_t gains[THR_MAX_PLAYERS][THR_MAX_CHANNELS];
    uint8_t panned[THR_MAX_PLAYERS]; /* the player's pan applies: gains[] holds its gains */
#endif
    unsigned channels = core->config->channel_count, c, p, k;
    uint32_t tick = core->tick_us;
    uint32_t safety = THR_Q15_ONE;
    /* the active list through locals: stores through an event pointer cannot alias them, so the
     * count and the addresses are not reloaded for every event */
    thr_active *ev = core->active, *end = ev + core->active_count;

    /* per player: both control layers combined once, not per event; per pass, where it is (an idle
     * player's passes only say that they do not play) */
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        const thr_player *pl = &core->player[p];
        player_mix *m = &mixes[p];
        uint32_t *at = &pass_ms[p * THR_MAX_PASSES];
        m->sums.intensity = m->sums.weighted = m->sums.audio = 0;
#if THR_CHANNEL_PAN
        panned[p] = 0;
#endif
        for (k = 0; k < THR_MAX_PASSES; k++)
            at[k] = pl->state == THR_PLAYER_PLAYING && pl->pass[k].live ? pl->pass[k].p_ms : NOT_PLAYING;
        if (pl->state != THR_PLAYER_PLAYING) continue;
        m->intensity = (uint32_t)pl->value[THR_CTL_INTENSITY] * (uint32_t)pl->rt.value[THR_CTL_INTENSITY] >> 15;
        m->volume = (uint32_t)pl->value[THR_CTL_VOLUME] * (uint32_t)pl->rt.value[THR_CTL_VOLUME] >> 15;
        m->tone = pl->value[THR_CTL_SHARPNESS] + pl->rt.value[THR_CTL_SHARPNESS];
        m->sounding = !pl->muted;
#if THR_CHANNEL_PAN
        /* the pan unset (the usual case) costs a test, no call */
        if (pl->rt.value[THR_CTL_PAN] >= 0) panned[p] = (uint8_t)pan_gains(pl, channels, gains[p]);
#endif
    }

    while (ev < end) {
        uint32_t p_ms = pass_ms[ev->player * THR_MAX_PASSES + ev->pass];
        player_mix *m = &mixes[ev->player];
        THR_KEEP(m);
        if ((ev->flags & (THR_AF_SUSTAINED | THR_AF_ATTACK_KNOWN | THR_AF_RELEASING)) ==
                (THR_AF_SUSTAINED | THR_AF_ATTACK_KNOWN) &&
            ev->tau >= ev->a_us && p_ms < ev->end_ms) {
            /* steady (sustained, past its attack, not releasing, its pass playing: NOT_PLAYING is
             * never below end_ms): gain 1, what event_gain gives, so level x a x r without the
             * x 1 (< 2^17: exact). Its time stays where it is: event_gain reads tau only against
             * a_us, which it has passed for good, or in a decay, which a sustained event has not
             * (no one else reads it). */
            if (m->sounding) {
                int haptic = (ev->flags & THR_AF_HAPTIC) != 0;
                uint32_t level = (uint32_t)ev->level * (haptic ? m->intensity : m->volume) >> 15;
                if (haptic) {
                    m->sums.intensity += level;
                    m->sums.weighted +=
                        (level * (uint32_t)thr_clamp_q15((int32_t)ev->tone + m->tone, 0) + 16384u) >> 15;
                } else {
                    m->sums.audio += level;
                }
            }
        }
#if THR_RENDER_RAMPS_INLINE
        else if ((ev->flags & (THR_AF_ATTACK_KNOWN | THR_AF_RELEASING)) == THR_AF_ATTACK_KNOWN && p_ms < ev->end_ms &&
                 (ev->tau < ev->a_us || ((ev->flags & (THR_AF_SUSTAINED | THR_AF_DECAY_KNOWN)) == THR_AF_DECAY_KNOWN &&
                                         ev->tau - ev->a_us < ev->d_us))) {
            /* in its attack, or in a decay not over (its segments worked out: a continuous event;
             * no release due, its pass playing): what event_gain and render_event do, without the
             * call and the tests that cannot change the result here: a gain of 0 adds 0 to every
             * sum, and tau + tick cannot wrap (a segment is at most 1 s: thr_envelope_us) */
            uint32_t tau = ev->tau, a_us = ev->a_us, shape;
#if THR_RENDER_RAMP_RECIPROCAL
            uint32_t x = tau, length = a_us;
            unsigned segment = THR_AF_RECIP_ATTACK;
            if (tau >= a_us) { /* one copy of the ramp's code for both segments: a decay falls */
                x = tau - a_us;
                length = ev->d_us;
                segment = THR_AF_RECIP_DECAY;
            }
            shape = segment_ramp(ev, x, length, segment);
            if (segment == THR_AF_RECIP_DECAY) shape = THR_Q15_ONE - shape;
#else
            /* a copy for each segment: where a division is an instruction, the faster (a Cortex-M4's
             * 16 ramping events, 1,980 instructions a tick rather than 2,010) */
            shape = tau < a_us ? thr_ramp_inline(tau, a_us) : THR_Q15_ONE - thr_ramp_inline(tau - a_us, ev->d_us);
#endif
            if (m->sounding) (void)add_event(m, ev, shape);
            ev->tau = tau + tick;
        }
#endif
        else if (p_ms != NOT_PLAYING && !render_event(core, m, ev, p_ms, tick)) {
            *ev = *--end;
            continue;
        } /* else paused: frozen and silent */
        ev++;
    }
    core->active_count = (uint8_t)(end - core->active);

    /* keep-alive safety fade (outside the semantics, §7.4) */
    if (core->fading) {
        uint32_t fade_us = (uint32_t)core->config->fade_ms * 1000u;
        uint32_t into = t - core->fade_start;
        safety = (fade_us == 0u || into >= fade_us) ? 0u : THR_Q15_ONE - thr_ramp(into, fade_us);
    }

    for (c = 0; c < channels; c++) {
        channel_mix mix;
        uint32_t tone = 0, level, sharp = 0, audio;
        int16_t drive;
        uint16_t frequency;
        mix.intensity = stream_level(core, c, t, &tone);
        mix.weighted = (mix.intensity * tone + 16384u) >> 15;
        mix.audio = 0;
        for (p = 0; p < THR_MAX_PLAYERS; p++) { /* a player not playing has no sums */
#if THR_CHANNEL_PAN
            if (panned[p]) {
                mix_gained(&mix, &mixes[p].sums, gains[p][c]);
                continue;
            }
#endif
            if ((unsigned)core->player[p].channel_mask >> c & 1u) mix_add(&mix, &mixes[p].sums);
        }
        level = mix.intensity > THR_Q15_ONE ? THR_Q15_ONE : mix.intensity;
        if (mix.intensity) { /* weighted <= intensity: keep weighted << 15 within 32 bits */
            uint32_t w = mix.weighted, sum = mix.intensity;
            while (sum > 0xFFFFu) {
                sum >>= 1;
                w >>= 1;
            }
            sharp = sum ? ((w << 15) + sum / 2u) / sum : 0u;
        }
        if (sharp > THR_Q15_ONE) sharp = THR_Q15_ONE;
        audio = mix.audio > THR_Q15_ONE ? THR_Q15_ONE : mix.audio;
        level = ((unsigned)core->faulted >> c) & 1u ? 0u : level * safety >> 15; /* a missing actuator stays silent */
        audio = audio * safety >> 15;
        thr_actuator_map(&core->actuator[c], (uint16_t)level, (uint16_t)sharp, &drive, &frequency);
        if (core->hal->actuator_write) core->hal->actuator_write(core->hal->ctx, (uint8_t)c, drive, frequency);
        if (core->hal->trace) { /* the sample only when someone reads it */
            thr_trace_sample sample;
            sample.time_us = t;
            sample.channel = (uint8_t)c;
            sample.reserved[0] = sample.reserved[1] = sample.reserved[2] = 0;
            sample.intensity_q15 = (uint16_t)level;
            sample.sharpness_q15 = (uint16_t)sharp;
            sample.audio_q15 = (uint16_t)audio;
            sample.reserved2 = 0;
            sample.drive_q14 = drive;
            sample.frequency_dhz = frequency;
            core->hal->trace(core->hal->ctx, &sample);
        }
    }

#if THR_AUDIO_SAMPLES
    thr_audio_end_tick(core, t, safety);
#endif
}

thr_status thr_stream_samples(thr_core *core, uint8_t channel, uint32_t at, uint16_t interval_us, uint8_t count,
                              const uint8_t *amp_sharp_pairs)
{
    thr_stream *st;
    unsigned i;
    if (channel >= core->config->channel_count) return THR_STATUS_BAD_ARGUMENT;
    if (count > THR_STREAM_MAX) count = THR_STREAM_MAX; /* INFO states the limit */
    st = &core->stream[channel];
    THR_KEEP(st);
    /* newest wins: whatever of the previous block has not played is replaced; at_time 0 is "now"
     * (PROTOCOL.md §1), the board time the frame is handled at, not board time 0 */
    st->at = at ? at : core->now;
    st->interval_us = interval_us ? interval_us : 1u;
    st->count = count;
    st->fading = 0;
    st->active = 1;
    for (i = 0; i < count; i++) { /* the items of STREAM_SAMPLES' list */
        const uint8_t *sample = amp_sharp_pairs + i * THR_STREAM_SAMPLES_SAMPLES_ITEM_SIZE;
        st->amp[i] = thr_get_stream_samples_samples_amplitude(sample);
        st->sharp[i] = thr_get_stream_samples_samples_sharpness(sample);
    }
    return THR_STATUS_OK;
}
