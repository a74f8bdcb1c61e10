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
        l->ring_overflow = 1;   /* the frame in progress will fail its CRC: the sender repeats it */
        return;
    }
    core->buffers.ring[head] = byte;
    l->ring_head = next;
}

/* ---------------- handshake ---------------- */

static void send_info(thr_core *core, uint32_t nonce)
{
    const thr_board_config *c = core->config;
    uint8_t payload[200], *p;
    unsigned i;
    uint32_t slots = core->flash.ready ? c->slot_count : 0u;
    const char *texts[3];
    texts[0] = c->firmware ? c->firmware : "";
    texts[1] = c->board ? c->board : "";
    texts[2] = c->serial ? c->serial : "";
    p = thr_put_le(payload, nonce, 4);
    p = thr_put_le(p, THR_WIRE_MAJOR | THR_WIRE_MINOR << 8, 2);
    for (i = 0; i < 3u; i++) {
        uint8_t k = 0;
        while (texts[i][k] && k < 32u) { p[1u + k] = (uint8_t)texts[i][k]; k++; }
        p = thr_put_le(p, k, 1) + k;
    }
    p = thr_put_le(p, THR_MAX_PAYLOAD, 2);
    p = thr_put_le(p, thr_link_window(core), 1);
    p = thr_put_le(p, c->tick_hz, 4);
    p = thr_put_le(p, core->memory_size, 4);
    p = thr_put_le(p, THR_MAX_TIMELINES | THR_MAX_PLAYERS << 8 | THR_RT_CURVE_POINTS << 16 | slots << 24, 4);
    p = thr_put_le(p, core->flash.ready ? c->slot_size : 0u, 4);
    p = thr_put_le(p, c->trigger_inputs | (uint32_t)c->audio_output << 8, 2);
    p = thr_put_le(p, THR_AUDIO_SAMPLES ? c->audio_rate_hz : 0u, 4);   /* 0: plays no samples */
    p = thr_put_le(p, c->keepalive_ms, 2);
    p = thr_put_le(p, THR_STREAM_MAX | (uint32_t)c->channel_count << 8, 2);
    for (i = 0; i < c->channel_count; i++) {
        const thr_actuator_state *a = &core->actuator[i];
        p = thr_put_le(p, a->kind, 1);
        p = thr_put_le(p, a->resonant_dhz | (uint32_t)a->rated_mv << 16, 4);
        p = thr_put_le(p, a->max_mv, 2);
    }
    thr_link_send_control(core, THR_MSG_INFO, payload, (uint16_t)(p - payload));
}

/* v: the decoded HELLO (major, minor, max_payload, window, nonce). */
static void handle_hello(thr_core *core, const uint32_t *v)
{
    thr_link *l = &core->link;
    uint32_t nonce = v[4];
    if (!l->session || nonce != l->nonce) {
        uint32_t max_payload = v[2];
        l->epoch = (uint16_t)(l->epoch + 1u == 0x10000u ? 1u : l->epoch + 1u);
        if (l->epoch == 0u) l->epoch = 1;
        l->nonce = nonce;
        l->session = 1;
        l->compatible = v[0] == THR_WIRE_MAJOR;
        l->host_max_payload = (uint16_t)(max_payload < 256u ? 256u : max_payload > 1024u ? 1024u : max_payload);
        l->peer_window = (uint8_t)(v[3] < 1u ? 1u : v[3] > 127u ? 127u : v[3]);
        l->next_seq = 1;
        l->tx_count = l->tx_sent = 0;
        l->last_accepted = 0;
        l->ack_pending = l->nak_pending = l->nak_sent = 0;
        l->rt_seen = 0;
        l->srtt = l->rttvar = 0;
        l->rto = THR_RTO_INITIAL;
        l->in_recovery = 0;
        l->unsampled_acks = 0;
        core->engine_running = 1;   /* a new host starts with a running engine */
        l->last_rx_at = core->now;
    }
    send_info(core, nonce);
}

/* ---------------- frame handling ---------------- */

static void reply_error(thr_core *core, const thr_frame *f, uint8_t status, unsigned reason, uint8_t field,
                        uint16_t offset)
{
    /* detail: "<reason> field <n> at byte <offset>" */
    uint8_t p[4 + 64];
    const char *name = thr_reason_name(reason);
    uint8_t n = 0;
    char digits[12];
    unsigned value, d;
    while (name[n] && n < 40u) { p[4 + n] = (uint8_t)name[n]; n++; }
    thr_copy(p + 4 + n, " field ", 7); n = (uint8_t)(n + 7u);
    p[4 + n++] = (uint8_t)('0' + field % 10u);
    thr_copy(p + 4 + n, " at byte ", 9); n = (uint8_t)(n + 9u);
    value = offset;
    d = 0;
    do { digits[d++] = (char)('0' + value % 10u); value /= 10u; } while (value && d < sizeof digits);
    while (d) p[4 + n++] = (uint8_t)digits[--d];
    p[0] = status;
    p[1] = f->type;
    p[2] = f->seq;
    p[3] = n;
    if (f->channel == 1u) thr_link_send_reliable(core, THR_MSG_ERROR, p, (uint16_t)(4u + n));
    else thr_link_send_control(core, THR_MSG_ERROR, p, (uint16_t)(4u + n));
}

static void handle_frame(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    uint8_t field;
    uint16_t offset;
    unsigned reason;
    uint32_t v[THR_MSG_MAX_FIELDS];
    if (f->channel == 0u && f->type == THR_MSG_HELLO) {
        if (thr_msg_decode(thr_msg_schema, f->type, f->payload, f->length, &field, &offset, v) == 0u) handle_hello(core, v);
        else l->undecodable++;
        return;
    }
    if (!l->session || f->epoch != l->epoch) {
        l->stale_frames++;
        thr_link_send_control(core, THR_MSG_ACK, 0, 0);   /* tells the host our epoch at once */
        return;
    }
    l->last_rx_at = core->now;
    thr_link_on_ack(core, f);
    if (f->channel == 1u) {
        uint8_t expected = (uint8_t)(l->last_accepted + 1u);
        l->ack_pending = 1;
        if (f->seq != expected) {
            if ((uint8_t)(l->last_accepted - f->seq) >= 128u && !l->nak_sent) {   /* ahead of a gap */
                l->nak_sent = 1;
                l->nak_pending = 1;
            }
            return;
        }
        l->last_accepted = f->seq;
        l->nak_sent = 0;
        if (!l->compatible) return;
    } else if (f->channel == 2u) {
        uint8_t ahead = (uint8_t)(f->seq - l->rt_last);
        if (!l->compatible || (l->rt_seen && (ahead < 1u || ahead > 191u))) return;
        l->rt_seen = 1;
        l->rt_last = f->seq;
    } else if (f->type == THR_MSG_ACK) {
        return;
    }
    reason = thr_msg_decode(thr_msg_schema, f->type, f->payload, f->length, &field, &offset, v);
    if (reason) {
        l->undecodable++;
        if (f->channel != 2u && f->type != THR_MSG_ERROR)
            reply_error(core, f, reason == THR_PL_UNKNOWN_TYPE ? THR_STATUS_UNKNOWN_MESSAGE : THR_STATUS_MALFORMED,
                        reason, field, offset);
        return;
    }
    thr_link_dispatch(core, f, v);
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

void thr_link_poll(thr_core *core)
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
    if (core->reports) thr_link_report(core);   /* anything recorded outside a tick goes before replies */
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
