/* The Thrum firmware core: one struct holds all mutable state (no globals), so a process can run
 * several boards (the simulator) and a port places it where it likes.
 *
 * Use:  thr_core_init(&core, &hal, &config, memory, memory_size);
 *       UART interrupt:  thr_core_rx_byte(&core, byte);
 *       main loop:       thr_core_poll(&core);   (handles frames, then renders every due tick)
 * Time: the HAL's 32-bit microsecond clock (the wire's board time), compared wrap-safe: a time is
 * "at or after" another when their difference as a signed 32-bit number is >= 0, so scheduled
 * times reach up to 35 minutes ahead. Tick n renders the point value at its start (SEMANTICS §1.2). */
#ifndef THR_CORE_H
#define THR_CORE_H

#include <stdint.h>

#include "thr_config.h"
#include "thr_hal.h"
#include "thr_timeline.h"
#include "thr_wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes are the wire's `status` enum: thr_status, THR_STATUS_* (thr_wire.h, generated). */

/* Rendered controls: the wire's parameters (thr_parameter) up to the audio volume with the same
 * numbers, then the audio attack, decay and release, then the channel pan; the audio pan and pitch
 * (and the timeline's brightness) have no lane. Timeline control codes 0-5 and 9-11 map onto them
 * (thr_ctl_slot_of_timeline_code). */
enum {
    THR_CTL_INTENSITY = THR_PARAMETER_INTENSITY_CONTROL,
    THR_CTL_SHARPNESS = THR_PARAMETER_SHARPNESS_CONTROL,
    THR_CTL_ATTACK = THR_PARAMETER_ATTACK_TIME_CONTROL,
    THR_CTL_DECAY = THR_PARAMETER_DECAY_TIME_CONTROL,
    THR_CTL_RELEASE = THR_PARAMETER_RELEASE_TIME_CONTROL,
    THR_CTL_VOLUME = THR_PARAMETER_AUDIO_VOLUME_CONTROL,
    THR_CTL_AUDIO_ATTACK,
    THR_CTL_AUDIO_DECAY,
    THR_CTL_AUDIO_RELEASE,
    THR_CTL_COUNT, /* the controls with an authored layer (a timeline can carry them) */
    /* The channel pan (SEMANTICS.md §12.2, with THR_CHANNEL_PAN) is a run-time control only: no
     * timeline carries it, so it has a slot in the run-time layer's arrays (thr_runtime, up to
     * THR_RT_COUNT) and none in the authored ones. A slot below THR_CTL_COUNT would add an authored
     * thr_ctl and value (28 bytes a player) that nothing can fill; here it costs 12 (a step, its
     * time, the value) and reuses the run-time steps, curves and supersession as they are. It
     * follows the audio release as channel_pan_control follows audio_release_time_control on the
     * wire, so the dispatcher maps both with one subtraction. */
    THR_CTL_PAN = THR_CTL_COUNT,
    THR_RT_COUNT = THR_CTL_COUNT + THR_CHANNEL_PAN
};
/* rt.value[THR_CTL_PAN] while the pan has not been set since the playback began (every channel of
 * the set at full level, §12.2); a set value is 0..32768. */
#define THR_PAN_UNSET (-1)
/* PLAYER_CHANNELS: a gap in the order, a place on the pan line with no channel of this board (a
 * rig puts one where another board's channel is, SEMANTICS.md §12.1). */
#define THR_CHANNEL_GAP 0xFFu
#define THR_CTL_NONE    0xFFu
/* Slot of a timeline control code (0..11), or THR_CTL_NONE. */
uint8_t thr_ctl_slot_of_timeline_code(uint8_t code);

/* ---- timeline store ---- */
/* READY is a playable timeline; WAVEFORM a committed waveform object (WAVEFORM.md), never played. */
enum { THR_TL_FREE = 0, THR_TL_UPLOADING = 1, THR_TL_READY = 2, THR_TL_WAVEFORM = 3 };

typedef struct thr_stored_timeline {
    uint32_t offset; /* in the timeline memory */
    uint32_t size;
    uint32_t received; /* next offset expected by the upload */
    uint32_t hash;     /* CRC-32C announced by UPLOAD_BEGIN */
    uint8_t state;
    uint8_t users; /* players not idle that play it: it cannot be freed while > 0 */
    thr_tl_info info;
} thr_stored_timeline;

/* ---- controls ---- */
typedef struct thr_ctl {
    int32_t t0, t1; /* ms of the current segment, in the newest pass's time (earlier passes < 0) */
    int32_t v0, v1; /* Q15 values */
    uint32_t next;  /* timeline offset of the next unread curve point */
    uint16_t left;  /* curve points not yet read */
    uint8_t mode;   /* 0 none, 1 step, 2 curve */
    uint8_t has_next;
} thr_ctl;

/* One loop pass (SEMANTICS.md §7.3): its position, for its events' release times. The authored
 * controls are one state per player, not per pass (§7.3): every sounding event uses it. */
typedef struct thr_pass {
    uint32_t p_ms, p_frac; /* pattern position: ms + frac/256000 ms */
    uint8_t live;
} thr_pass;

typedef struct thr_rt_step {
    uint32_t at; /* board time, low 32 bits (compared wrap-safe) */
    int32_t value;
    uint8_t slot;
    uint8_t used;
} thr_rt_step;

/* The run-time layer of one player (sendParameters / scheduleParameterCurve), board time. */
typedef struct thr_runtime {
    uint8_t curve_slot; /* THR_CTL_NONE when no curve */
    uint8_t curve_n;
    uint8_t pending_n;         /* steps waiting in `pending` */
    uint16_t has_step;         /* bit per slot */
    uint16_t step_after_curve; /* bit per slot: its step was given after the curve (wins a tie) */
    uint32_t curve_at;
    int32_t value[THR_RT_COUNT]; /* evaluated for this tick */
    int32_t step[THR_RT_COUNT];
    uint32_t step_at[THR_RT_COUNT];        /* board time, low 32 bits */
    uint32_t curve_t[THR_RT_CURVE_POINTS]; /* us from curve_at */
    int32_t curve_v[THR_RT_CURVE_POINTS];
    thr_rt_step pending[THR_RT_PENDING];
} thr_runtime;

enum { THR_PLAYER_IDLE = 0, THR_PLAYER_SCHEDULED, THR_PLAYER_PLAYING, THR_PLAYER_PAUSED };
enum { THR_ACT_STOP = 0, THR_ACT_PAUSE, THR_ACT_RESUME, THR_ACT_SEEK, THR_ACT_COUNT };

typedef struct thr_player {
    uint16_t rate_q8; /* 256 = 1.0 */
    uint8_t state;
    uint8_t handle;
    uint8_t channel_mask; /* the channels it renders on, bit per channel (SEMANTICS.md §12.1) */
    uint8_t next_mask;    /* a PLAYER_CHANNELS waiting for next_channels_at: its channels; 0: none */
    uint8_t muted;
    uint8_t looping;
    uint8_t action_pending;            /* bit per THR_ACT_* */
    uint8_t host_owned;                /* started by the host (keep-alive applies) */
    uint8_t current;                   /* index of the newest pass */
    uint8_t reading;                   /* the newest pass still applies records (not past the end or loop end) */
    uint8_t next_known;                /* next_start holds the start of the record at the cursor */
    uint8_t finished_handle;           /* it finished and the host has not been told: handle + 1, else 0 */
    uint32_t finished_at;              /* and when */
    uint32_t next_channels_at;         /* board time next_mask takes effect */
    uint32_t start_at;                 /* board time the playback begins */
    uint32_t action_at[THR_ACT_COUNT]; /* board time, low 32 bits */
    uint32_t seek_to_us;               /* pending seek position */
    uint32_t start_pos_us;             /* position to start from */
    uint32_t loop_ms;                  /* pass length in whole pattern ms */
    uint32_t cursor;                   /* timeline offset of the next record to apply */
    uint32_t cursor_base;              /* start of the record before it */
    uint32_t next_start;
    uint16_t ctl_used;            /* bit per slot with an authored entry (others stay neutral) */
    int32_t value[THR_CTL_COUNT]; /* authored layer, evaluated for this tick (Q15) */
    thr_pass pass[THR_MAX_PASSES];
    thr_ctl ctl[THR_CTL_COUNT]; /* authored control state (one per player, §7.3) */
    thr_runtime rt;
#if THR_CHANNEL_PAN
    /* The set in pan order (§12.2): channel[0..channel_n), 0 = every channel in index order; and
     * the waiting PLAYER_CHANNELS' order. Last: the fields before them keep their offsets. */
    uint8_t channel_n, next_channel_n;
    uint8_t channel[THR_MAX_CHANNELS], next_channel[THR_MAX_CHANNELS];
#endif
} thr_player;

/* An event that is sounding. Times in board microseconds (saturating). */
typedef struct thr_active {
    uint16_t level, tone; /* Q15 */
    uint8_t type;
    uint8_t flags;
    uint8_t player, pass;
    uint8_t decay_raw, release_raw;
    uint8_t ramp_shift;        /* THR_RENDER_RAMP_RECIPROCAL: the shift of the length rtau is for */
    uint32_t tau;              /* since the event's start */
    uint32_t rtau;             /* since its release began; before it, THR_RENDER_RAMP_RECIPROCAL's
                                * 0xFFFFFFFF / (shifted length) of the attack or decay (flags say which) */
    uint32_t end_ms;           /* pattern ms where the release begins (start + duration) */
    uint32_t a_us, d_us, r_us; /* segment lengths; AudioCustom: r_us = its length */
#if THR_AUDIO_SAMPLES
    uint32_t resource; /* AudioCustom: registered resource whose samples it plays (0 = none) */
#endif
} thr_active;

/* ---- streaming (STREAM_SAMPLES) ---- */
#ifndef THR_STREAM_MAX
#define THR_STREAM_MAX 28u
#endif
typedef struct thr_stream {
    uint32_t at;
    uint16_t interval_us;
    uint8_t count;
    uint8_t active;
    uint16_t fade_from; /* level when the stream ran out (Q15) */
    uint16_t fade_tone;
    uint32_t fade_at; /* when the underrun fade began */
    uint8_t fading;
    uint8_t amp[THR_STREAM_MAX], sharp[THR_STREAM_MAX];
} thr_stream;

/* ---- actuator state ---- */
typedef struct thr_actuator_state {
    uint16_t last_level; /* Q15 intensity of the previous tick */
    int16_t boost_q14;   /* overdrive (+) or braking (-) still to apply */
    uint8_t boost_ticks;
    uint8_t boost_len; /* ticks of overdrive/braking per edge */
    uint8_t kind;
    uint16_t resonant_dhz, rated_mv, max_mv;
} thr_actuator_state;

/* ---- flash store ---- */
typedef struct thr_slot_state {
    uint32_t size;
    uint32_t hash; /* CRC-32C of the stored timeline: UPLOAD_BEGIN's hash */
    uint32_t seq;
    uint8_t bank; /* bank holding the current content */
    uint8_t used;
} thr_slot_state;

typedef struct thr_flash_store {
    uint32_t meta_seq;
    uint8_t meta_bank;
#if THR_FLASH_PROGRAM_MAX > 1u
    uint8_t program; /* write granularity (bytes, a power of two) */
    uint8_t head;    /* header area: the header rounded up to `program` */
#endif
    uint8_t boot_slot;       /* 255 = none */
    uint8_t trigger_slot[4]; /* slot per trigger input, 255 = none */
    uint8_t ready;
    thr_slot_state slot[THR_MAX_SLOTS];
#if THR_FLASH_SECTOR_MAP
    /* where each bank starts (2 metadata banks, then 2 per slot), and the end of the last */
    uint32_t bank_at[2u + 2u * THR_MAX_SLOTS + 1u];
#else
    uint32_t bank_size; /* bytes per slot bank, whole sectors (a metadata bank is one sector) */
#endif
} thr_flash_store;

/* ---- link ---- */
#ifndef THR_RX_RING
#define THR_RX_RING 128u /* bytes between the UART interrupt and the main loop */
#endif
#ifndef THR_MAX_PAYLOAD
#define THR_MAX_PAYLOAD 256u /* payload the board accepts (PROTOCOL.md §2.4: at least 256) */
#endif
#ifndef THR_TX_SLOTS
#define THR_TX_SLOTS 4u /* reliable frames the board keeps queued or in flight */
#endif
#ifndef THR_TX_PAYLOAD
#define THR_TX_PAYLOAD 64u /* largest payload the board sends (replies and notifications) */
#endif
#ifndef THR_RX_HOLD_FRAMES
/* Reliable frames held after a gap and named in SACK (PROTOCOL.md §6.3); 0: none (go-back-N, no SACK).
 * Each costs THR_MAX_PAYLOAD + 6 bytes of RAM; the stated window is then at most THR_RX_HOLD_FRAMES + 1. */
#define THR_RX_HOLD_FRAMES 0u
#endif
#define THR_RX_PIECE (THR_MAX_PAYLOAD + 12u + (THR_MAX_PAYLOAD + 12u) / 254u + 1u)

typedef struct thr_tx_entry {
    uint32_t sent_at; /* board time of the last transmission (low 32 bits) */
    uint16_t length;  /* payload bytes */
    uint8_t transmissions;
#if THR_RX_HOLD_FRAMES
    uint8_t held; /* the host's SACK named it held: never resent */
#endif
    uint8_t frame[8u + THR_TX_PAYLOAD + 4u]; /* header, payload, CRC: rebuilt at each send */
} thr_tx_entry;

#if THR_RX_HOLD_FRAMES
/* A reliable frame that arrived after a gap (PROTOCOL.md §6.3), kept until the gap fills. */
typedef struct thr_held_frame {
    uint8_t used, seq, type;
    uint16_t length;
    uint8_t payload[THR_MAX_PAYLOAD];
} thr_held_frame;
#endif

typedef struct thr_link {
    /* Scalars first, arrays last: a Cortex-M0+ reaches a field directly only within 31 (bytes),
     * 62 (halfwords) or 124 (words) bytes of the struct's start; past that every access costs a
     * literal load. */
    volatile uint8_t ring_overflow;
    uint8_t piece_overflowed;
    uint8_t session;       /* a HELLO has been answered */
    uint8_t compatible;    /* the host's major version is ours */
    uint8_t last_accepted; /* receiver: last in-order reliable seq */
    uint8_t ack_pending, nak_pending, nak_sent;
    uint8_t rt_last, rt_seen; /* realtime newest-wins filter */
    uint8_t next_seq;         /* sender: next reliable seq */
    uint8_t tx_count;         /* entries queued or in flight */
    uint8_t tx_sent;          /* of which in flight (the oldest ones) */
    uint8_t peer_window;
    uint8_t last_nak_ack;
    uint8_t advertised;     /* window we last stated */
    uint8_t in_recovery;    /* a timeout happened and no progress since */
    uint8_t unsampled_acks; /* progress acknowledgements in a row without an RTT sample */
    uint8_t late_pending;   /* the command being handled was late: LATE follows its reply */
#if THR_RX_HOLD_FRAMES
    uint8_t sack_peer;    /* the host's message set knows SACK (1.1 or later) */
    uint8_t sack_pending; /* a reliable frame arrived while frames are held: SACK owed */
    uint8_t peer_holds;   /* the host sent a SACK: resend only what it shows missing */
#endif
    volatile uint16_t ring_head; /* written by the interrupt */
    volatile uint16_t ring_tail; /* written by the main loop */
    uint16_t piece_length;
    uint16_t epoch;
    uint16_t host_max_payload;
    uint32_t nonce;
    uint32_t srtt, rttvar, rto; /* us; srtt 0 = no sample yet */
    uint32_t last_nak_at;
    uint32_t recovery_at; /* when the last timeout resent the oldest frame */
    uint32_t late_by;
    uint32_t last_rx_at; /* last valid frame of the session (keep-alive) */
    uint32_t rejected_pieces, stale_frames, undecodable, dropped_notifications, retransmissions;
} thr_link;

/* The link's buffers, kept apart from its scalars (at the end of thr_core) so that the scalars
 * stay close to the start of thr_core: cheaper to reach on a Cortex-M0+. */
typedef struct thr_link_buffers {
    uint8_t ring[THR_RX_RING];
    uint8_t piece[THR_RX_PIECE]; /* the frame being received (COBS-decoded in place) */
    thr_tx_entry tx[THR_TX_SLOTS];
#if THR_RX_HOLD_FRAMES
    thr_held_frame held[THR_RX_HOLD_FRAMES]; /* slot seq % THR_RX_HOLD_FRAMES */
#endif
} thr_link_buffers;

typedef struct thr_core {
    thr_link link; /* first: its many small fields are cheapest to reach there */
    const thr_hal *hal;
    const thr_board_config *config;
    uint32_t now;       /* board time (us), read at the start of each poll */
    uint32_t next_tick; /* board time of the next tick to render */
    uint32_t tick_us;
    uint32_t fade_start;
    uint8_t engine_running;
    uint8_t fading; /* a fade to silence is running: stop reason + 1 (0 = none) */
    uint8_t active_count;
    uint8_t reports;        /* a player's finish or the engine's stop waits for the link to report it */
    uint8_t stopped_reason; /* the engine stopped and the host has not been told: reason + 1, else 0 */
    uint8_t faulted;        /* bit per channel muted by thr_core_channel_fault (actuator missing) */
#if THR_ACTUATOR_CALIBRATION
    uint8_t calibrating; /* ACTUATOR_CALIBRATE waits for hal.actuator_calibrate_poll: channel + 1, else 0 */
#endif
    uint8_t *memory; /* timeline memory */
    uint32_t memory_size;
    /* CLOCK_TRIM (SEMANTICS.md §1.6): players advance by tick_us x (1 + trim_ppb / 10^9) board us a
     * tick, which is trim_ppb / (1000 tick_hz) us more than tick_us: trim_acc adds trim_ppb a tick,
     * in 1/(1000 tick_hz) us, and keeps what is not yet a whole us (0 <= trim_acc < 1000 tick_hz),
     * so the trimmed time never drifts from the exact one. (Where they are: the Cortex-M0+ code is
     * smallest so.) */
    int32_t trim_ppb;
    int32_t trim_acc;
    uint32_t dropped_events; /* events not played because THR_MAX_ACTIVE were sounding */
    uint32_t stopped_at;     /* when the engine stopped */
    /* Optional observer of board-to-host notifications (tests; NULL = none). */
    void (*notify)(void *ctx, uint8_t type, const uint8_t *payload, uint16_t length);
    void *notify_ctx;
#if THR_ACTUATOR_CALIBRATION
    uint32_t calibrate_at;  /* ACTUATOR_CALIBRATE: when it began */
    uint16_t calibrate_tag; /* and its tag */
#endif
    /* The arrays in the order that makes the Cortex-M0+ code smallest (measured over the orders of
     * these six: offsets a few instructions build beat ones that need a literal; the worst order
     * costs about 200 bytes more). */
    thr_flash_store flash;
    thr_stream stream[THR_MAX_CHANNELS];
    thr_actuator_state actuator[THR_MAX_CHANNELS];
    thr_stored_timeline timeline[THR_MAX_TIMELINES];
    thr_active active[THR_MAX_ACTIVE];
    thr_player player[THR_MAX_PLAYERS];
#if THR_AUDIO_SAMPLES
    uint16_t audio_per_tick; /* samples a tick (0: the configured rate cannot play) */
    uint8_t audio_live;      /* bit 0: a sound played this tick, bit 1: the tick before */
    uint32_t audio_period_us;
    int32_t audio_mix[THR_AUDIO_MAX_PER_TICK];
#endif
    thr_link_buffers buffers;
} thr_core;

/* Initialises everything; `memory` holds the loaded timelines. Plays the boot slot if one is bound.
 * Returns THR_STATUS_BAD_ARGUMENT for an unusable configuration. */
thr_status thr_core_init(thr_core *core, const thr_hal *hal, const thr_board_config *config, uint8_t *memory,
                         uint32_t memory_size);
/* Interrupt context: one received byte. */
void thr_core_rx_byte(thr_core *core, uint8_t byte);
/* Main loop: handle received frames, keep-alive, retransmissions, then render every due tick. */
void thr_core_poll(thr_core *core);
/* After thr_core_poll: microseconds during which the core has nothing to do unless a byte arrives
 * (0 = poll again now: a tick is due or received bytes wait). A port may wfi that long (thr_hal.h). */
uint32_t thr_core_idle_us(thr_core *core);
/* Main loop only (never from an interrupt nor from inside a HAL call): a channel driver reports a
 * fault once per occurrence.
 * - THR_FAULT_OVER_CURRENT, THR_FAULT_OVER_TEMPERATURE: FAULT(fault, channel) is sent (reliable)
 *   and all output stops at once (every player and stream, no fade); the host is told
 *   ENGINE_STOPPED(fault) after the tick. ENGINE_START plays again.
 * - THR_FAULT_ACTUATOR_MISSING: FAULT(actuator_missing, channel) is sent and the channel stays
 *   muted (drive 0) until cleared; the rest of the board (INFO, the other channels) works on.
 * - THR_FAULT_CLEAR (0): the channel is back (a driver's retry found the chip): unmuted, nothing sent. */
#define THR_FAULT_CLEAR ((thr_fault)0)
void thr_core_channel_fault(thr_core *core, uint8_t channel, thr_fault fault);
/* Renders exactly one tick at core->next_tick (tests, benchmarks, manual clocks). */
void thr_core_tick(thr_core *core);
/* Reads the HAL clock into core->now. */
uint32_t thr_core_now(thr_core *core);

/* ---- timeline store ---- */
/* Loads complete bytes (validated) into the store; gives the handle. */
thr_status thr_store_load(thr_core *core, const uint8_t *bytes, uint32_t size, uint8_t *handle);
thr_status thr_store_begin(thr_core *core, uint32_t size, uint32_t hash, uint8_t *handle);
thr_status thr_store_chunk(thr_core *core, uint8_t handle, uint32_t offset, const uint8_t *data, uint32_t length);
thr_status thr_store_commit(thr_core *core, uint8_t handle, thr_tl_result *why);
thr_status thr_store_free(thr_core *core, uint8_t handle);

/* ---- players (times are board time in us; positions are pattern time in us) ---- */
thr_status thr_player_start(thr_core *core, uint8_t player, uint8_t handle, uint32_t at, uint32_t position_us);
thr_status thr_player_stop(thr_core *core, uint8_t player, uint32_t at);
thr_status thr_player_pause(thr_core *core, uint8_t player, uint32_t at);
thr_status thr_player_resume(thr_core *core, uint8_t player, uint32_t at);
thr_status thr_player_seek(thr_core *core, uint8_t player, uint32_t position_us, uint32_t at);
thr_status thr_player_loop(thr_core *core, uint8_t player, int enabled, uint32_t loop_end_us);
thr_status thr_player_rate(thr_core *core, uint8_t player, uint16_t rate_q8);
thr_status thr_player_mute(thr_core *core, uint8_t player, int muted);
thr_status thr_player_cancel(thr_core *core, uint8_t player);
/* PLAYER_CHANNELS: from board time `at` (the first tick at or after it) the player renders on
 * `count` channels, `channels` in pan order (count 0: every channel). BAD_ARGUMENT for a channel
 * >= channel_count or named twice; a newer change replaces one still waiting. */
thr_status thr_player_channels(thr_core *core, uint8_t player, uint32_t at, uint8_t count, const uint8_t *channels);
/* CLOCK_TRIM: players advance by (1 + rate_ppb / 10^9) pattern us per board us from the next tick;
 * BAD_ARGUMENT beyond +-THR_CLOCK_TRIM_MAX_PPB. 0 at init and for every new host session. */
#define THR_CLOCK_TRIM_MAX_PPB 40000000 /* 4 %: a board up to 3 % off, an RC oscillator (PROTOCOL.md §7.4) */
thr_status thr_clock_trim(thr_core *core, int32_t rate_ppb);
/* Run-time controls: slot THR_CTL_* (THR_CTL_PAN with THR_CHANNEL_PAN), value Q15 (intensity,
 * volume and pan 0..32768, the others -32768..32768). */
thr_status thr_player_param(thr_core *core, uint8_t player, uint8_t slot, int32_t value_q15, uint32_t at);
thr_status thr_player_curve(thr_core *core, uint8_t player, uint8_t slot, uint32_t at, uint8_t count,
                            const uint32_t *times_us, const int32_t *values_q15);
/* thr_engine.c: stops every player and stream now; the link reports ENGINE_STOPPED(reason). */
void thr_engine_stop(thr_core *core, thr_stop_reason reason);
/* thr_engine.c: fades all output to zero over config->fade_ms, then thr_engine_stop(reason). */
void thr_engine_fade_out(thr_core *core, thr_stop_reason reason);

/* Raw streaming for one channel: `count` samples from `at`, one every interval_us (newest wins). */
thr_status thr_stream_samples(thr_core *core, uint8_t channel, uint32_t at, uint16_t interval_us, uint8_t count,
                              const uint8_t *amp_sharp_pairs);

#if THR_AUDIO_SAMPLES
/* Validates a waveform object's bytes (Protocol/WAVEFORM.md §2), with the spec's reason codes. */
thr_tl_result thr_wf_validate(const uint8_t *bytes, uint32_t size);
#endif

/* ---- fixed-point maths (exposed for tests; thr_isqrt for channel drivers too) ---- */
/* floor(sqrt(x)) for any 32-bit x, without division. */
uint32_t thr_isqrt(uint32_t x);
/* Segment length in us for a Q15 value 0..32768 (SEMANTICS.md §4.1 table). */
uint32_t thr_envelope_us(int32_t value_q15);
/* UQ8 -> Q15, exact at both ends. */
uint16_t thr_uq8_to_q15(uint8_t q);
/* SQ8 (raw byte) -> Q15. */
int32_t thr_sq8_to_q15(uint8_t raw);

#ifdef __cplusplus
}
#endif

#endif
