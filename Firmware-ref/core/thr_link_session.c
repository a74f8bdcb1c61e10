/* The link's session (PROTOCOL.md §3, §4, §7): the receive ring the UART interrupt fills, the
 * HELLO/INFO handshake and its epoch, and which received frames are accepted (epoch, reliable
 * order with NAK on a gap, realtime newest-wins, payload check) before dispatch. All from the main
 * loop except thr_core_rx_byte. */
#define THR_MESSAGES_SCHEMA
#include "thr_link.h"
#include "thr_message.h"
#include "thr_messages.h"

/* ---------------- receive ring (interrupt side) ---------------- */

void thr_core_rx_byte(thr_core *core, uint8_t byte)
{
    thr_link *l = &core->link;
    uint16_t head = l->ring_head, next = (uint16_t)((head + 1u) % THR_RX_RING);
    if (next == l->ring_tail) {
        l->ring_overflow = 1; /* the frame in progress will fail its CRC: the sender repeats it */
        return;
    }
    core->buffers.ring[head] = byte;
    l->ring_head = next;
}

/* ---------------- handshake ---------------- */

static void send_info(thr_core *core, uint32_t nonce)
{
    const thr_board_config *c = core->config;
    uint8_t payload[THR_INFO_MAX_SIZE], *p = payload;
    unsigned i;
    uint8_t slots = core->flash.ready ? c->slot_count : 0u;
    thr_put_info_nonce(p, nonce);
    thr_put_info_major(p, THR_WIRE_MAJOR);
    thr_put_info_minor(p, THR_WIRE_MINOR);
    /* each string starts where the one before ends */
    p = thr_put_info_firmware_length(
        p, thr_link_put_text(thr_put_info_firmware_text(p), c->firmware, THR_INFO_FIRMWARE_MAX));
    p = thr_put_info_board_length(p, thr_link_put_text(thr_put_info_board_text(p), c->board, THR_INFO_BOARD_MAX));
    p = thr_put_info_serial_length(p, thr_link_put_text(thr_put_info_serial_text(p), c->serial, THR_INFO_SERIAL_MAX));
    /* p: the end of the serial string, where the fields after it count from */
    thr_put_info_max_payload(p, THR_MAX_PAYLOAD);
    thr_put_info_window(p, thr_link_window(core));
    thr_put_info_tick_hz(p, c->tick_hz);
    thr_put_info_timeline_memory(p, core->memory_size);
    thr_put_info_max_timelines(p, THR_MAX_TIMELINES);
    thr_put_info_players(p, THR_MAX_PLAYERS);
    thr_put_info_max_curve_points(p, THR_RT_CURVE_POINTS);
    thr_put_info_flash_slots(p, slots);
    thr_put_info_flash_slot_size(p, core->flash.ready ? c->slot_size : 0u);
    thr_put_info_trigger_inputs(p, c->trigger_inputs);
    thr_put_info_audio(p, (thr_audio_output)c->audio_output);
    thr_put_info_audio_rate_hz(p, THR_AUDIO_SAMPLES ? c->audio_rate_hz : 0u); /* 0: plays no samples */
    thr_put_info_keepalive_ms(p, c->keepalive_ms);
    thr_put_info_stream_max_samples(p, THR_STREAM_MAX);
    for (i = 0; i < c->channel_count; i++) {
        const thr_actuator_state *a = &core->actuator[i];
        uint8_t *item = thr_put_info_channels_item(p, i);
        thr_put_info_channels_kind(item, (thr_actuator_kind)a->kind);
        thr_put_info_channels_resonant_dhz(item, a->resonant_dhz);
        thr_put_info_channels_rated_mv(item, a->rated_mv);
        thr_put_info_channels_max_mv(item, a->max_mv);
    }
    p = thr_put_info_channels_count(p, c->channel_count);
    thr_link_send_control(core, THR_MSG_INFO, payload, (uint16_t)(p - payload));
}

void (*thr_link_new_session_hook)(thr_core *core);

static void clear_players_and_store(thr_core *core)
{
    uint8_t i;
    for (i = 0; i < THR_MAX_PLAYERS; i++) {
        thr_player_cancel(core, i);
        thr_player_routing_reset(thr_player_at(core, i)); /* every channel, no pan, nothing waiting */
    }
    for (i = 0; i < THR_MAX_TIMELINES; i++) (void)thr_store_free(core, i);
    core->stopped_reason = 0; /* an ENGINE_STOPPED still owed to the last host is not the new one's */
    core->trim_ppb = 0;       /* the last host's CLOCK_TRIM measured its clock, not the new one's */
}

/* a: the HELLO's payload, v its decoded fields. */
static void handle_hello(thr_core *core, const uint8_t *a, const uint32_t *v)
{
    thr_link *l = &core->link;
    uint32_t nonce = thr_get_hello_nonce(v);
    if (!l->session || nonce != l->nonce) {
        uint16_t max_payload = thr_get_hello_max_payload(v);
        uint8_t window = thr_get_hello_window(a);
        l->epoch = (uint16_t)(l->epoch + 1u == 0x10000u ? 1u : l->epoch + 1u);
        if (l->epoch == 0u) l->epoch = 1;
        l->nonce = nonce;
        l->session = 1;
        l->compatible = thr_get_hello_major(a) == THR_WIRE_MAJOR;
        l->host_max_payload = (uint16_t)(max_payload < 256u ? 256u : max_payload > 1024u ? 1024u : max_payload);
        l->peer_window = (uint8_t)(window < 1u ? 1u : window > 127u ? 127u : window);
        l->next_seq = 1;
        l->tx_count = l->tx_sent = 0;
        l->last_accepted = 0;
        l->ack_pending = l->nak_pending = l->nak_sent = 0;
        l->rt_seen = 0;
        l->srtt = l->rttvar = 0;
        l->rto = THR_RTO_INITIAL;
        l->in_recovery = 0;
        l->unsampled_acks = 0;
#if THR_RX_HOLD_FRAMES
        {
            unsigned i;
            for (i = 0; i < THR_RX_HOLD_FRAMES; i++) core->buffers.held[i].used = 0;
            l->sack_peer = thr_get_hello_minor(a) >= 1u;
            l->sack_pending = l->peer_holds = 0;
        }
#endif
        /* What the last host loaded and started goes with its session: the new host cannot name it, and
         * kept it would fill the memory run after run (PROTOCOL.md §4.1). Flash slots stay. */
        clear_players_and_store(core);
        core->engine_running = 1; /* a new host starts with a running engine, */
        core->fading = 0;         /* not with the last host's fade to a stop */
        if (thr_link_new_session_hook) thr_link_new_session_hook(core);
        l->last_rx_at = core->now;
    }
    send_info(core, nonce);
}

/* ---------------- frame handling ---------------- */

/* Appends a NUL-terminated text at text[n] (no more than fits ERROR's detail); returns the new length. */
static uint8_t append(uint8_t *text, uint8_t n, const char *s)
{
    return (uint8_t)(n + thr_link_put_text(text + n, s, THR_ERROR_DETAIL_MAX));
}

static void reply_error(thr_core *core, const thr_frame *f, thr_status status, unsigned reason, uint8_t field,
                        uint16_t offset)
{
    /* detail: "<reason> field <n> at byte <offset>" */
    uint8_t p[THR_ERROR_DETAIL_TEXT_AT + THR_ERROR_DETAIL_MAX], *text = thr_put_error_detail_text(p);
    uint8_t n;
    char digits[6];
    unsigned value = offset, d = sizeof digits - 1u;
    digits[d] = 0;
    do {
        digits[--d] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value);
    n = append(text, 0, thr_reason_name(reason)); /* the longest name has 15 bytes */
    n = append(text, n, " field ");
    text[n++] = (uint8_t)('0' + field % 10u);
    n = append(text, n, " at byte ");
    n = append(text, n, digits + d);
    thr_put_error_status(p, status);
    thr_put_error_ref_type(p, f->type);
    thr_put_error_ref_seq(p, f->seq);
    n = (uint8_t)(thr_put_error_detail_length(p, n) - p);
    if (f->channel == THR_CHANNEL_RELIABLE)
        thr_link_send_reliable(core, THR_MSG_ERROR, p, n);
    else
        thr_link_send_control(core, THR_MSG_ERROR, p, n);
}

/* Decodes and executes an accepted frame, or a HELLO on the control channel (any epoch); an
 * undecodable one is answered with ERROR (§5.3), except a HELLO, which is only counted. */
static void execute(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    uint8_t field;
    uint16_t offset;
    unsigned reason;
    uint32_t v[THR_MSG_MAX_FIELDS];
    int hello = f->channel == THR_CHANNEL_CONTROL && f->type == THR_MSG_HELLO;
    reason = thr_msg_decode(thr_msg_schema, f->type, f->payload, f->length, &field, &offset, v);
    if (reason) {
        l->undecodable++;
        if (!hello && f->channel != THR_CHANNEL_REALTIME && f->type != THR_MSG_ERROR)
            reply_error(core, f, reason == THR_PL_UNKNOWN_TYPE ? THR_STATUS_UNKNOWN_MESSAGE : THR_STATUS_MALFORMED,
                        reason, field, offset);
    } else if (hello) {
        handle_hello(core, f->payload, v);
    } else {
        thr_link_dispatch(core, f, v);
    }
}

#if THR_RX_HOLD_FRAMES
/* A reliable frame ahead of a gap: kept if it lies within the window (ack + 2 ... ack + 1 + HOLD). */
static void hold(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    thr_held_frame *h = &core->buffers.held[f->seq % THR_RX_HOLD_FRAMES];
    uint8_t ahead = (uint8_t)(f->seq - l->last_accepted);
    if (ahead > THR_RX_HOLD_FRAMES + 1u || f->length > THR_MAX_PAYLOAD || (h->used && h->seq == f->seq)) return;
    h->used = 1;
    h->seq = f->seq;
    h->type = f->type;
    h->length = f->length;
    thr_copy(h->payload, f->payload, f->length);
}

/* After in-order progress: executes the held frames that now follow, in order. */
static void deliver_held(thr_core *core, thr_frame *f)
{
    thr_link *l = &core->link;
    for (;;) {
        uint8_t seq = (uint8_t)(l->last_accepted + 1u);
        thr_held_frame *h = &core->buffers.held[seq % THR_RX_HOLD_FRAMES];
        if (!h->used || h->seq != seq) return;
        l->last_accepted = seq;
        f->seq = seq;
        f->type = h->type;
        f->payload = h->payload;
        f->length = h->length;
        if (l->compatible) execute(core, f);
        h->used = 0;
    }
}
#endif

static void handle_frame(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    if (f->channel == THR_CHANNEL_CONTROL && f->type == THR_MSG_HELLO) {
        execute(core, f); /* before the epoch check: HELLO carries epoch 0 */
        return;
    }
    if (!l->session || f->epoch != l->epoch) {
        l->stale_frames++;
        thr_link_send_control(core, THR_MSG_ACK, 0, 0); /* tells the host our epoch at once */
        return;
    }
    l->last_rx_at = core->now;
    thr_link_on_ack(core, f);
    if (f->channel == THR_CHANNEL_RELIABLE) {
        uint8_t expected = (uint8_t)(l->last_accepted + 1u);
        l->ack_pending = 1;
        if (f->seq != expected) {
            if ((uint8_t)(l->last_accepted - f->seq) >= 128u) { /* ahead of a gap */
                if (!l->nak_sent) {
                    l->nak_sent = 1;
                    l->nak_pending = 1;
                }
#if THR_RX_HOLD_FRAMES
                hold(core, f);
#endif
            }
#if THR_RX_HOLD_FRAMES
            l->sack_pending = 1; /* sent only while frames are held (thr_link_flush) */
#endif
            return;
        }
        l->last_accepted = f->seq;
        l->nak_sent = 0;
#if THR_RX_HOLD_FRAMES
        l->sack_pending = 1;
        if (l->compatible) execute(core, f);
        {
            thr_frame next = *f;
            deliver_held(core, &next);
        }
        return;
#else
        if (!l->compatible) return;
#endif
    } else if (f->channel == THR_CHANNEL_REALTIME) {
        uint8_t ahead = (uint8_t)(f->seq - l->rt_last);
        if (!l->compatible || (l->rt_seen && (ahead < 1u || ahead > 191u))) return;
        l->rt_seen = 1;
        l->rt_last = f->seq;
    } else if (f->type == THR_MSG_ACK) {
        return;
    }
    execute(core, f);
}

void thr_link_init(thr_core *core)
{
    thr_link *l = &core->link;
    uint16_t epoch = core->config->boot_epoch;
    if (epoch == 0u) epoch = (uint16_t)(core->now ^ (core->now >> 16) ^ 0x5A17u);
    l->epoch = epoch;
    l->rto = THR_RTO_INITIAL;
    l->peer_window = 1;
}

THR_NOINLINE void thr_link_poll(thr_core *core)
{
    thr_link *l = &core->link;
    thr_frame_rx rx;
    thr_frame f;
    unsigned budget = THR_RX_RING;
    rx.buffer = core->buffers.piece;
    rx.capacity = THR_RX_PIECE;
    rx.max_payload = THR_MAX_PAYLOAD;
    rx.length = l->piece_length;
    rx.overflowed = l->piece_overflowed;
    if (core->reports) thr_link_report(core); /* anything recorded outside a tick goes before replies */
    while (budget-- && l->ring_tail != l->ring_head) {
        uint8_t byte = core->buffers.ring[l->ring_tail];
        int r;
        uint32_t state = core->hal->critical_enter ? core->hal->critical_enter(core->hal->ctx) : 0u;
        l->ring_tail = (uint16_t)((l->ring_tail + 1u) % THR_RX_RING);
        if (core->hal->critical_exit) core->hal->critical_exit(core->hal->ctx, state);
        r = thr_frame_rx_byte(&rx, byte, &f);
        if (r > 0) {
            handle_frame(core, &f);
        } else if (r < 0) {
            l->rejected_pieces++;
        }
    }
    l->piece_length = rx.length;
    l->piece_overflowed = rx.overflowed;
    thr_link_check_timeout(core);
    thr_link_flush(core);
}
