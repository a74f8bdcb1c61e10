/* The board's end of the link (PROTOCOL.md §3-8): receive ring, session and epoch, go-back-N
 * reliable channel with NAK and RFC 6298 timeout, realtime newest-wins, command dispatch,
 * replies and notifications. All from the main loop except thr_core_rx_byte. */

#define THR_MESSAGES_SCHEMA
#include "thr_flash.h"
#include "thr_internal.h"
#include "thr_link.h"
#include "thr_messages.h"

#define RTO_INITIAL 500000u
#define RTO_MIN 10000u
#define RTO_MAX 4000000u
#define MAX_TRANSMISSIONS 25u

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

/* ---------------- sending ---------------- */

static void put(thr_core *core, const uint8_t *data, uint32_t length)
{
    if (length && core->hal->serial_write) core->hal->serial_write(core->hal->ctx, data, length);
}

void thr_frame_emit(const uint8_t *frame, uint32_t n, void (*put_bytes)(void *ctx, const uint8_t *data, uint32_t length),
                    void *ctx)
{
    static const uint8_t zero = 0;
    uint32_t i = 0;
    put_bytes(ctx, &zero, 1);
    for (;;) {
        uint32_t j = i;
        uint8_t code;
        while (j < n && frame[j] != 0u && j - i < 254u) j++;
        code = (uint8_t)(j - i + 1u);
        put_bytes(ctx, &code, 1);
        if (j > i) put_bytes(ctx, frame + i, j - i);
        if (j == n) break;
        i = frame[j] == 0u ? j + 1u : j;
    }
    put_bytes(ctx, &zero, 1);
}

static void put_serial(void *ctx, const uint8_t *data, uint32_t length)
{
    thr_core *core = ctx;
    put(core, data, length);
}

static void write_frame(thr_core *core, const uint8_t *frame, uint32_t n)
{
    thr_frame_emit(frame, n, put_serial, core);
}

/* The window we state: free send slots minus one, so every command we accept has room for its
 * reply and one notification. */
static uint8_t window(const thr_core *core)
{
    int free_slots = (int)THR_TX_SLOTS - (int)core->link.tx_count - 1;
    return (uint8_t)(free_slots < 0 ? 0 : free_slots > 127 ? 127 : free_slots);
}

THR_NOINLINE static void header(thr_core *core, uint8_t *h, uint8_t channel, uint8_t seq, uint8_t type)
{
    thr_link *l = &core->link;
    h[0] = THR_FRAME_FORMAT;
    h[1] = (uint8_t)(channel | (l->nak_pending ? 4u : 0u));
    thr_put16(h + 2, l->epoch);
    h[4] = seq;
    h[5] = l->last_accepted;
    h[6] = l->advertised = window(core);
    h[7] = type;
    l->ack_pending = 0;   /* the acknowledgement rides on this frame */
    l->nak_pending = 0;
}

/* Control frames (INFO, PONG, ACK, control ERROR) go out at once and are not kept. */
static void send_control(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    uint8_t frame[8u + 200u + 4u];
    if (length > 200u) return;
    header(core, frame, 0, 0, type);
    if (length) thr_copy(frame + 8, payload, length);
    thr_put32(frame + 8 + length, thr_crc32c_update(0, frame, 8u + length));
    write_frame(core, frame, 12u + length);
}

static void transmit(thr_core *core, thr_tx_entry *e)
{
    uint8_t seq = e->frame[4];
    header(core, e->frame, 1, seq, e->frame[7]);
    thr_put32(e->frame + 8 + e->length, thr_crc32c_update(0, e->frame, 8u + e->length));
    e->sent_at = core->now;
    if (e->transmissions < 255u) e->transmissions++;
    write_frame(core, e->frame, 12u + e->length);
}

/* Queues a reliable message; refuses loudly (counted) when the send ring is full. */
static int send_reliable(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    thr_link *l = &core->link;
    thr_tx_entry *e;
    if (!l->session || l->tx_count >= THR_TX_SLOTS || length > THR_TX_PAYLOAD) {
        l->dropped_notifications++;
        return 0;
    }
    e = &core->buffers.tx[l->tx_count++];
    e->length = length;
    e->transmissions = 0;
    e->frame[7] = type;
    if (length) thr_copy(e->frame + 8, payload, length);
    return 1;
}

/* Sends what the peer's window allows, then a bare ACK if one is still owed. */
static void flush(thr_core *core)
{
    thr_link *l = &core->link;
    while (l->session && l->tx_sent < l->tx_count && l->tx_sent < l->peer_window) {
        thr_tx_entry *e = &core->buffers.tx[l->tx_sent++];
        e->frame[4] = l->next_seq++;
        transmit(core, e);
    }
    if (l->session && (l->ack_pending || l->nak_pending || (l->advertised == 0u && window(core) > 0u)))
        send_control(core, THR_MSG_ACK, 0, 0);
}

int thr_notify(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    if (core->notify) core->notify(core->notify_ctx, type, payload, length);
    return !core->link.session || send_reliable(core, type, payload, length);
}

void thr_link_report(thr_core *core)
{
    uint8_t p, waiting = 0, payload[6];
    if (core->stopped_reason) {
        payload[0] = (uint8_t)(core->stopped_reason - 1u);
        thr_put32(payload + 1, core->stopped_at);
        core->stopped_reason = 0;
        thr_notify(core, THR_MSG_ENGINE_STOPPED, payload, 5);
    }
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        thr_player *pl = &core->player[p];
        if (!pl->finished_handle) continue;
        if (core->link.session && core->link.tx_count >= THR_TX_SLOTS) {
            waiting = 1;   /* tried again after the next tick */
            continue;
        }
        payload[0] = p;
        payload[1] = (uint8_t)(pl->finished_handle - 1u);
        thr_put32(payload + 2, pl->finished_at);
        pl->finished_handle = 0;
        thr_notify(core, THR_MSG_PLAYER_FINISHED, payload, 6);   /* there is room: never refused */
    }
    core->reports = waiting;
}

/* ---------------- acknowledgements and timeouts (§6) ---------------- */

/* RTO from the estimate (§6.2), or the initial value before any sample. */
static uint32_t estimated_rto(const thr_link *l)
{
    uint32_t rto;
    if (l->srtt == 0u) return RTO_INITIAL;
    rto = l->srtt + (4u * l->rttvar > l->srtt / 2u ? 4u * l->rttvar : l->srtt / 2u);
    return rto < RTO_MIN ? RTO_MIN : rto > RTO_MAX ? RTO_MAX : rto;
}

static void rtt_sample(thr_link *l, uint32_t r)
{
    if (l->srtt == 0u) {
        l->srtt = r ? r : 1u;
        l->rttvar = r / 2u;
    } else {
        uint32_t diff = l->srtt > r ? l->srtt - r : r - l->srtt;
        l->rttvar = (3u * l->rttvar + diff) / 4u;
        l->srtt = (7u * l->srtt + r) / 8u;
    }
    l->rto = estimated_rto(l);
}

static void resend_all(thr_core *core)
{
    thr_link *l = &core->link;
    uint8_t i;
    for (i = 0; i < l->tx_sent; i++) {
        transmit(core, &core->buffers.tx[i]);
        l->retransmissions++;
    }
}

static void handle_ack(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    uint8_t last_acked = (uint8_t)(l->next_seq - l->tx_sent - 1u);
    uint8_t k = (uint8_t)(f->ack - last_acked);
    l->peer_window = f->window > 127u ? 127u : f->window;
    if (k >= 1u && k <= l->tx_sent) {
        const thr_tx_entry *newest = &core->buffers.tx[k - 1u];
        /* Karn's rule, except that the very first sample may come from a resent frame (§6.2) */
        if (newest->transmissions == 1u || l->srtt == 0u) {
            rtt_sample(l, core->now - newest->sent_at);
            l->unsampled_acks = 0;
        } else if (++l->unsampled_acks >= 8u) {   /* heavy loss starves the estimator: undo a back-off */
            uint32_t floor = estimated_rto(l);
            l->unsampled_acks = 0;
            l->rto = l->rto / 2u > floor ? l->rto / 2u : floor;
        }
        thr_copy(&core->buffers.tx[0], &core->buffers.tx[k], (uint32_t)(l->tx_count - k) * (uint32_t)sizeof core->buffers.tx[0]);
        l->tx_count = (uint8_t)(l->tx_count - k);
        l->tx_sent = (uint8_t)(l->tx_sent - k);
        last_acked = f->ack;
        if (l->in_recovery) {
            /* an answer to the resend (not to the original) means the receiver dropped what followed */
            l->in_recovery = 0;
            if (core->now - l->recovery_at >= l->srtt / 2u) resend_all(core);
        }
    }
    if (f->nak && l->tx_sent && f->ack == last_acked) {
        /* at most once per smoothed round trip for the same ack (no limit before the first sample) */
        if (l->srtt == 0u || l->last_nak_ack != f->ack || core->now - l->last_nak_at >= l->srtt) {
            l->last_nak_ack = f->ack;
            l->last_nak_at = core->now;
            resend_all(core);
        }
    }
}

static void check_timeout(thr_core *core)
{
    thr_link *l = &core->link;
    if (!l->session || l->tx_sent == 0u) return;
    if (core->now - core->buffers.tx[0].sent_at < l->rto) return;
    if (core->buffers.tx[0].transmissions >= MAX_TRANSMISSIONS) {
        l->session = 0;   /* the host is gone: its next HELLO opens a new session */
        l->tx_count = l->tx_sent = 0;
        return;
    }
    /* back off only when the host has said nothing since the frame went out (§6.1) */
    if ((int32_t)(l->last_rx_at - core->buffers.tx[0].sent_at) <= 0) l->rto = l->rto * 2u > RTO_MAX ? RTO_MAX : l->rto * 2u;
    transmit(core, &core->buffers.tx[0]);   /* the oldest frame only: a spurious timeout stays cheap */
    l->retransmissions++;
    l->in_recovery = 1;
    l->recovery_at = core->now;
}

/* ---------------- replies ---------------- */

static void reply_result(thr_core *core, uint16_t tag, uint8_t status)
{
    uint8_t p[3];
    thr_put16(p, tag);
    p[2] = status;
    send_reliable(core, THR_MSG_RESULT, p, 3);
}

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
    if (f->channel == 1u) send_reliable(core, THR_MSG_ERROR, p, (uint16_t)(4u + n));
    else send_control(core, THR_MSG_ERROR, p, (uint16_t)(4u + n));
}

/* A command's at_time: in the past means now, reported with LATE. */
/* A command's at_time: one already past means now, and a LATE report follows the reply (§5.2). */
static uint32_t at_time(thr_core *core, uint32_t at)
{
    int32_t late = (int32_t)(core->now - at);
    if (at == 0u) return core->now;   /* "now": never late (§1) */
    if (late > 0) {
        core->link.late_pending = 1;
        core->link.late_by = (uint32_t)late;
        return core->now;
    }
    return at;
}

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
    p = thr_put_le(p, window(core), 1);
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
    send_control(core, THR_MSG_INFO, payload, (uint16_t)(p - payload));
}

/* ---------------- handshake ---------------- */

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
        l->rto = RTO_INITIAL;
        l->in_recovery = 0;
        l->unsampled_acks = 0;
        core->engine_running = 1;   /* a new host starts with a running engine */
        l->last_rx_at = core->now;
    }
    send_info(core, nonce);
}

/* ---------------- commands ---------------- */

static uint8_t slot_of_wire_parameter(uint8_t parameter)
{
    /* wire enum: 0-5 as the timeline; 6 pan, 7 pitch, 8-10 audio attack/decay/release, while the
     * timeline has 6 pan, 7 brightness, 8 pitch, 9-11: from 7 on, the timeline code is one more */
    return parameter < 11u ? thr_ctl_slot_of_timeline_code((uint8_t)(parameter + (parameter >= 7u))) : THR_CTL_NONE;
}

static void upload_status(thr_core *core, uint16_t tag, uint8_t status, uint8_t handle)
{
    uint8_t p[8];
    thr_put16(p, tag);
    p[2] = status;
    p[3] = handle;
    thr_put32(p + 4, handle < THR_MAX_TIMELINES ? core->timeline[handle].received : 0u);
    send_reliable(core, THR_MSG_UPLOAD_STATUS, p, 8);
}

static void trace_or_calibration(thr_core *core, const thr_frame *f, uint16_t tag, const uint32_t *v)
{
    const uint8_t *a = f->payload;
    uint8_t p[12];
    uint8_t channel = a[2];
    thr_put16(p, tag);
    p[3] = channel;
    if (f->type == THR_MSG_TRACE_READ) {
        /* no trace buffer on this board: the simulator reads samples through the HAL's trace hook */
        p[2] = THR_STATUS_NOT_SUPPORTED;
        thr_put32(p + 4, v[2]);   /* start */
        thr_put16(p + 8, core->tick_us > 0xFFFFu ? 0xFFFFu : core->tick_us);
        send_reliable(core, THR_MSG_TRACE_DATA, p, 10);
    } else {
        int ok = channel < core->config->channel_count;
        p[2] = ok ? THR_STATUS_NOT_SUPPORTED : THR_STATUS_BAD_ARGUMENT;
        thr_put16(p + 4, ok ? core->actuator[channel].resonant_dhz : 0u);
        thr_put32(p + 6, 0);
        send_reliable(core, THR_MSG_CALIBRATION_RESULT, p, 10);
    }
}

static void slot_list(thr_core *core, uint16_t tag)
{
    uint8_t p[5 + THR_MAX_SLOTS * 10u];
    uint8_t i, n = core->flash.ready ? core->config->slot_count : 0u;
    thr_put16(p, tag);
    p[2] = core->flash.ready ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED;
    p[3] = core->flash.boot_slot;
    p[4] = n;
    for (i = 0; i < n; i++) {
        const thr_slot_state *s = &core->flash.slot[i];
        uint8_t *q = p + 5 + i * 10u;
        q[0] = i;
        q[1] = s->used;
        thr_put32(q + 2, s->used ? s->size : 0u);
        thr_put32(q + 6, s->used ? s->hash : 0u);
    }
    send_reliable(core, THR_MSG_SLOT_LIST_REPLY, p, (uint16_t)(5u + n * 10u));
}

static void slot_read(thr_core *core, uint16_t tag, uint8_t slot, uint32_t offset, uint32_t length)
{
    uint8_t p[8 + THR_TX_PAYLOAD];
    uint32_t room = THR_TX_PAYLOAD - 8u;
    thr_status s;
    if (length > room) length = room;
    if (length > core->link.host_max_payload - 8u) length = core->link.host_max_payload - 8u;
    s = thr_slot_read(core, slot, offset, p + 8, &length);
    thr_put16(p, tag);
    p[2] = (uint8_t)s;
    p[3] = slot;
    thr_put32(p + 4, offset);
    send_reliable(core, THR_MSG_SLOT_DATA, p, (uint16_t)(8u + (s == THR_OK ? length : 0u)));
}

static void curve(thr_core *core, uint16_t tag, const uint8_t *a, uint32_t at)
{
    uint32_t times[THR_RT_CURVE_POINTS];
    int32_t values[THR_RT_CURVE_POINTS];
    uint8_t count = a[8], i, slot = slot_of_wire_parameter(a[3]);
    thr_status s;
    if (count > THR_RT_CURVE_POINTS) {
        reply_result(core, tag, THR_STATUS_BAD_ARGUMENT);
        return;
    }
    for (i = 0; i < count; i++) {
        times[i] = thr_get32(a + 9 + i * 6u);
        values[i] = (int32_t)(int16_t)thr_get16(a + 13 + i * 6u) * 2;   /* Q1.14 -> Q15 */
    }
    s = slot == THR_CTL_NONE ? (a[3] < 11u ? THR_OK : THR_BAD_ARGUMENT)
                             : thr_player_curve(core, a[2], slot, at, count, times, values);
    reply_result(core, tag, (uint8_t)s);
}

/* Executes one checked host-to-board message. */
/* Executes one checked host-to-board message; v holds its decoded fields (thr_msg_decode): u16 and
 * u32 fields are read from there, single bytes straight from the payload. */
static void dispatch(thr_core *core, const thr_frame *f, const uint32_t *v)
{
    const uint8_t *a = f->payload;
    uint16_t tag = (uint16_t)v[0];
    thr_status s = THR_OK;
    uint8_t handle = 255;
    uint32_t at = 0;
    unsigned i;
    /* the commands with an at_time, and which field it is */
    static const uint8_t timed[][2] = {
        { THR_MSG_PLAYER_START, 3 }, { THR_MSG_PLAYER_STOP, 2 }, { THR_MSG_PLAYER_PAUSE, 2 },
        { THR_MSG_PLAYER_RESUME, 2 }, { THR_MSG_PLAYER_SEEK, 3 }, { THR_MSG_PLAYER_PARAM, 4 },
        { THR_MSG_PLAYER_CURVE, 3 }, { THR_MSG_SLOT_PLAY, 3 }
    };
    for (i = 0; i < sizeof timed / sizeof timed[0]; i++) {
        if (timed[i][0] == f->type) at = at_time(core, v[timed[i][1]]);
    }
    /* the control and realtime messages first: the switch below then spans ids 16-69 only, which
     * keeps its jump table short (ACK and the host's ERROR, never answered, fall to its default) */
    if (f->type == THR_MSG_PING) {
        uint8_t p[14];
        thr_copy(p, a, 6);   /* id, host_time */
        thr_put32(p + 6, core->now);
        thr_put32(p + 10, core->hal->now_us(core->hal->ctx));
        send_control(core, THR_MSG_PONG, p, 14);
        return;
    }
    if (f->type == THR_MSG_STREAM_SAMPLES) {
        thr_stream_samples(core, a[0], v[1], (uint16_t)v[2], a[7], a + 8);
        return;
    }
    if (f->type == THR_MSG_RT_PARAM) {
        uint8_t slot = slot_of_wire_parameter(a[1]);
        if (slot != THR_CTL_NONE)
            thr_player_param(core, a[0], slot, (int32_t)v[2] * 2, core->now);
        return;
    }
    if (f->type == THR_MSG_ACTUATOR_CALIBRATE || f->type == THR_MSG_TRACE_READ) {
        trace_or_calibration(core, f, tag, v);
        return;
    }
    switch (f->type) {
    case THR_MSG_UPLOAD_BEGIN:
        s = thr_store_begin(core, v[1], v[2], &handle);
        upload_status(core, tag, (uint8_t)s, s == THR_OK ? handle : 255u);
        return;
    case THR_MSG_UPLOAD_CHUNK:
        s = thr_store_chunk(core, a[2], v[2], a + 7, (uint32_t)f->length - 7u);
        upload_status(core, tag, (uint8_t)s, a[2]);
        return;
    case THR_MSG_UPLOAD_COMMIT: s = thr_store_commit(core, a[2], 0); break;
    case THR_MSG_TIMELINE_FREE: {
        uint8_t p;
        for (p = 0; p < THR_MAX_PLAYERS; p++) {
            const thr_player *pl = thr_player_at(core, p);
            if (pl->state != THR_PLAYER_IDLE && pl->handle == a[2]) thr_player_cancel(core, p);
        }
        s = thr_store_free(core, a[2]);
        break;
    }
    case THR_MSG_PLAYER_START:
        s = thr_player_start(core, a[2], a[3], at, v[4]);
        if (s == THR_OK) thr_player_at(core, a[2])->host_owned = 1;
        break;
    case THR_MSG_PLAYER_STOP: s = thr_player_stop(core, a[2], at); break;
    case THR_MSG_PLAYER_PAUSE: s = thr_player_pause(core, a[2], at); break;
    case THR_MSG_PLAYER_RESUME: s = thr_player_resume(core, a[2], at); break;
    case THR_MSG_PLAYER_SEEK:
        s = thr_player_seek(core, a[2], v[2], at);
        break;
    case THR_MSG_PLAYER_LOOP: s = thr_player_loop(core, a[2], a[3], v[3]); break;
    case THR_MSG_PLAYER_RATE: s = thr_player_rate(core, a[2], (uint16_t)v[2]); break;
    case THR_MSG_PLAYER_MUTE: s = thr_player_mute(core, a[2], a[3]); break;
    case THR_MSG_PLAYER_CANCEL: s = thr_player_cancel(core, a[2]); break;
    case THR_MSG_PLAYER_PARAM: {
        uint8_t slot = slot_of_wire_parameter(a[3]);
        s = a[3] > 10u ? THR_BAD_ARGUMENT : slot == THR_CTL_NONE ? (a[2] < THR_MAX_PLAYERS ? THR_OK : THR_NO_SUCH_PLAYER)
            : thr_player_param(core, a[2], slot, (int32_t)v[3] * 2, at);
        break;
    }
    case THR_MSG_PLAYER_CURVE: curve(core, tag, a, at); return;
    case THR_MSG_ENGINE_START:
        core->engine_running = 1;
        core->fading = 0;
        break;
    case THR_MSG_ENGINE_STOP: thr_engine_fade_out(core, THR_STOP_REASON_HOST_REQUEST); break;
    case THR_MSG_ACTUATOR_CONFIG: {
        uint8_t c = a[2];
        const thr_channel_config *cfg = c < core->config->channel_count ? &core->config->channels[c] : 0;
        uint16_t rated = (uint16_t)v[4], max = (uint16_t)v[5];
        if (!cfg || a[3] > 1u || max > cfg->max_mv || rated > max || max == 0u) {
            s = THR_BAD_ARGUMENT;   /* never above the board's hardware limits */
        } else {
            thr_actuator_state *st = &core->actuator[c];
            st->kind = a[3];
            st->resonant_dhz = (uint16_t)v[3];
            st->rated_mv = rated;
            st->max_mv = max;
        }
        break;
    }
    case THR_MSG_SLOT_STORE: s = thr_slot_store(core, a[2], a[3]); break;
    case THR_MSG_SLOT_LIST: slot_list(core, tag); return;
    case THR_MSG_SLOT_READ: slot_read(core, tag, a[2], v[2], v[3]); return;
    case THR_MSG_SLOT_ERASE: s = thr_slot_erase(core, a[2]); break;
    case THR_MSG_SLOT_PLAY:
        s = thr_slot_play(core, a[2], a[3], at);
        if (s == THR_OK) thr_player_at(core, a[3])->host_owned = 1;
        break;
    case THR_MSG_SLOT_BIND: s = thr_slot_bind(core, a[2], a[3], a[4]); break;
    default:
        return;
    }
    reply_result(core, tag, (uint8_t)s);
}

/* ---------------- frame handling ---------------- */

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
        send_control(core, THR_MSG_ACK, 0, 0);   /* tells the host our epoch at once */
        return;
    }
    l->last_rx_at = core->now;
    handle_ack(core, f);
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
    l->late_pending = 0;
    dispatch(core, f, v);
    if (l->late_pending) {
        uint8_t p[7];
        p[0] = f->payload[0];   /* the command's tag */
        p[1] = f->payload[1];
        p[2] = f->type;
        thr_put32(p + 3, l->late_by);
        thr_notify(core, THR_MSG_LATE, p, 7);
    }
}

void thr_link_init(thr_core *core)
{
    thr_link *l = &core->link;
    uint16_t epoch = core->config->boot_epoch;
    if (epoch == 0u) epoch = (uint16_t)(core->now ^ (core->now >> 16) ^ 0x5A17u);
    l->epoch = epoch;
    l->rto = RTO_INITIAL;
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
    check_timeout(core);
    flush(core);
}
