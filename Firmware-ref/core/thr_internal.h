/* Declarations shared between the core's files (not part of the public API), bottom layer first.
 * A file calls only files listed above its own section (checked by `make layers`); the frame
 * codec and the payload checker have public headers (thr_frame.h, thr_message.h), the link's
 * parts their own (thr_link.h). */
#ifndef THR_INTERNAL_H
#define THR_INTERNAL_H

#include "thr_bytes.h"
#include "thr_core.h"

/* ---- thr_fixed.c: fixed-point maths ---- */
#define THR_Q15_ONE     32768
#define THR_FRAC_PER_MS 256000u /* pattern position fraction: 1/256 us */
/* frac / 32000 (eighths of a ms) for 0 <= frac < THR_FRAC_PER_MS, exactly: frac / 256 / 125 with
 * 1/125 as 2098 / 2^18 (a software division on a Cortex-M0+ costs about 50 instructions) */
#define THR_FRAC_TO_EIGHTH_MS(frac) ((((uint32_t)(frac) >> 8) * 2098u) >> 18)

/* 32768 x / length for 0 <= x < length, 32-bit only (exact below 131 ms, else within 2^-12).
 * Always inline where the renderer works out ramps in its loop (THR_RENDER_RAMPS_INLINE); elsewhere
 * through thr_ramp, inline as the compiler sees fit (a Cortex-M0+'s 16 KB build keeps one copy). */
THR_ACCESSOR uint32_t thr_ramp_inline(uint32_t x, uint32_t length)
{
    /* keep x << 15 within 32 bits: long spans lose their low bits first, one bit at a time until
     * length <= 0x1FFFF, that is by its bit length less 17 (at once where the processor counts
     * leading zeros: not on a Cortex-M0+) */
#if defined(__GNUC__) && (!defined(__arm__) || defined(__ARM_FEATURE_CLZ)) /* an instruction, not a call */
    if (length > 0x1FFFFu) {
        unsigned k = 15u - (unsigned)__builtin_clz(length);
        length >>= k;
        x >>= k;
    }
#else
    while (length > 0x1FFFFu) {
        length >>= 1;
        x >>= 1;
    }
#endif
    return (x << 15) / length;
}
/* thr_ramp_inline's quotient to the bit, with two multiplies for its division (a Cortex-M0+ has
 * no divide instruction; its software one costs about a hundred): x and length shifted as
 * thr_ramp_inline shifts them (x <= length <= 0x1FFFF, length > 0), recip = 0xFFFFFFFF / length.
 * recip = 2^32 / length - f with 0 < f <= 1, so x recip < 2^32, and x recip / 2^17 is less than
 * 1 below 32768 x / length (x < 2^17): its floor is the quotient or one less, which the
 * remainder tells (0 <= remainder < 2 length). */
THR_ACCESSOR uint32_t thr_ramp_reciprocal(uint32_t x, uint32_t length, uint32_t recip)
{
    uint32_t q = x * recip >> 17;
    return (x << 15) - q * length >= length ? q + 1u : q;
}
/* Inline: on the renderer's per-event path a call costs more than the body. */
static inline uint32_t thr_ramp(uint32_t x, uint32_t length)
{
    return thr_ramp_inline(x, length);
}
/* Board microseconds for a stretch of pattern time (ms + frac/256000) at rate/256: 32-bit only,
 * saturating. */
uint32_t thr_pattern_to_board_us(uint32_t ms, uint32_t frac, uint32_t rate_q8);

/* sqrt(f / 32768) in Q15, rounded to the nearest 1/32768, for 0 <= f <= 32768 (the channel pan's
 * gains, SEMANTICS.md §12.2): exact at both ends. */
uint32_t thr_sqrt_q15(uint32_t f);

static inline int32_t thr_clamp_q15(int32_t value, int32_t low)
{
    return value < low ? low : value > 32768 ? 32768 : value;
}
/* Board time `t` is at or after `at` (wrap-safe). */
static inline int thr_due(uint32_t at, uint32_t t)
{
    return (int32_t)(t - at) >= 0;
}

/* ---- thr_timeline.c, thr_waveform.c: what stored bytes mean ---- */
#if THR_AUDIO_SAMPLES
/* The resource ID of waveform table entry `index` (kind 2), else 0. */
uint32_t thr_tl_waveform_resource(const uint8_t *bytes, const thr_tl_info *info, uint32_t index);
/* A waveform object is 12 header bytes (magic, version, flags, resource ID, sample rate), then
 * its 8-bit samples. */
#define THR_WF_HEADER 12u
int thr_wf_is_object(const uint8_t *bytes, uint32_t size);
/* Validates the stored object and makes it findable by its resource ID. */
thr_status thr_wf_commit(thr_core *core, thr_stored_timeline *tl);
#endif

/* ---- thr_store.c, thr_flash.c: timeline memory and flash slots (the rest in thr_core.h, thr_flash.h) ---- */
const uint8_t *thr_timeline_bytes(const thr_core *core, uint8_t handle);
/* &core->timeline[handle], out of line (a Cortex-M0+ needs a dozen bytes to work it out, a call six). */
const thr_stored_timeline *thr_timeline_at(const thr_core *core, uint8_t handle);
void thr_flash_init(thr_core *core);

/* ---- thr_player.c: players ---- */
/* active-event flags */
#define THR_AF_SUSTAINED    0x01u
#define THR_AF_RELEASING    0x02u
#define THR_AF_ATTACK_KNOWN 0x04u
#define THR_AF_DECAY_KNOWN  0x08u
#define THR_AF_HAPTIC       0x10u
/* THR_RENDER_RAMP_RECIPROCAL: rtau holds the reciprocal of the attack's (or the decay's) length */
#define THR_AF_RECIP_ATTACK 0x20u
#define THR_AF_RECIP_DECAY  0x40u

/* SEMANTICS.md §5.1: a transient is full for 10 ms, then falls linearly to 0 over 10 ms. */
#define THR_TRANSIENT_US 20000u

/* &core->player[player], out of line: a Cortex-M0+ needs a dozen bytes to work it out, a call six
 * (not used on the per-event paths). */
thr_player *thr_player_at(thr_core *core, unsigned player);
/* Per tick, before rendering: commands due, records reached, controls evaluated. A player that
 * finishes records it for the link (finished_handle, core->reports). */
void thr_players_tick(thr_core *core, uint32_t t);
/* After rendering: every playing pass moves on by one tick of board time (trimmed by CLOCK_TRIM)
 * times the rate. */
void thr_players_advance(thr_core *core);
/* Every channel, in index order, the pan never set and no PLAYER_CHANNELS waiting: at init, when a
 * PLAYER_START or SLOT_PLAY is handled, and for every new host session (SEMANTICS.md §12). */
void thr_player_routing_reset(thr_player *pl);
void thr_player_free_events(thr_core *core, uint8_t player, uint8_t pass);

/* ---- thr_actuator.c, thr_audio.c, thr_render.c: output ---- */
void thr_actuator_init(thr_core *core);
void thr_actuator_map(thr_actuator_state *state, uint16_t level_q15, uint16_t tone_q15, int16_t *drive_q14,
                      uint16_t *frequency_dhz);
#if THR_AUDIO_SAMPLES
void thr_audio_init(thr_core *core);
void thr_audio_add_event(thr_core *core, const thr_active *ev, uint32_t volume_q15);
/* Hands the tick's mixed samples to hal.audio_write and clears the mix (the core starts zeroed). */
void thr_audio_end_tick(thr_core *core, uint32_t t, uint32_t safety_q15);
#endif
/* One tick of output, after thr_players_tick and before thr_players_advance. */
void thr_render_tick(thr_core *core, uint32_t t);

/* ---- thr_engine.c: the engine as a whole (fade and stop in thr_core.h) ---- */
/* Per tick while core->fading: stops the engine when the fade is over. */
void thr_engine_fade_step(thr_core *core, uint32_t t);

/* ---- the link (thr_link_*.c, thr_link.h): what the rest of the core calls ---- */
void thr_link_init(thr_core *core);
void thr_link_poll(thr_core *core);
/* Calls the notification hook and queues the message for the host; 0 when the send queue was full. */
int thr_notify(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length);
/* thr_link_session.c: called for every new host session once set (by thr_core_channel_fault, the top
 * layer, so a board that never reports a channel fault links none of it). One function for every core. */
extern void (*thr_link_new_session_hook)(thr_core *core);
/* FAULT(fault, channel) at board time `at` (channel 255: the whole board), through thr_notify. */
void thr_link_send_fault(thr_core *core, thr_fault fault, uint8_t channel, uint32_t at);
/* Sends what the engine and the players recorded (core->reports): ENGINE_STOPPED, then each
 * PLAYER_FINISHED, which waits in its player while the send queue is full, never dropped (§5.3). */
void thr_link_report(thr_core *core);
/* thr_link_dispatch.c: asks hal.actuator_calibrate_poll about the running ACTUATOR_CALIBRATE and
 * answers CALIBRATION_RESULT when it is done or timed out. */
#if THR_ACTUATOR_CALIBRATION
void thr_link_calibrate_poll(thr_core *core);
#endif

#include "thr_messages.h"

#endif
