/* The link's sending side (PROTOCOL.md §4, §6): control frames written at once, reliable frames
 * queued in the send ring until the peer's window lets them out and kept until acknowledged, and
 * the notifications the board sends unasked. Frames are encoded by thr_frame.c. */
#include "thr_frame.h"
#include "thr_internal.h"
#include "thr_link.h"
#include "thr_messages.h"

/* The board's serial line, as the frame encoder's output. */
static void put_serial(void *ctx, const uint8_t *data, uint32_t length)
{
    const thr_core *core = ctx;
    if (core->hal->serial_write) core->hal->serial_write(core->hal->ctx, data, length);
}

uint8_t thr_link_window(const thr_core *core)
{
#if THR_ACTUATOR_CALIBRATION
    /* a running calibration's reply has its slot kept too */
    int free_slots = (int)THR_TX_SLOTS - (int)core->link.tx_count - 1 - (core->calibrating != 0);
#else
    int free_slots = (int)THR_TX_SLOTS - (int)core->link.tx_count - 1;
#endif
#if THR_RX_HOLD_FRAMES
    if (free_slots > (int)THR_RX_HOLD_FRAMES + 1) free_slots = (int)THR_RX_HOLD_FRAMES + 1; /* all can be held */
#endif
    return (uint8_t)(free_slots < 0 ? 0 : free_slots > 127 ? 127 : free_slots);
}

/* Writes one frame on the line: the caller's channel, seq, type and payload (encoded in `plain`),
 * the link's epoch, acknowledgement, window and NAK. */
THR_NOINLINE static void send_frame(thr_core *core, uint8_t *plain, uint8_t channel, uint8_t seq, uint8_t type,
                                    const uint8_t *payload, uint16_t length)
{
    thr_link *l = &core->link;
    thr_frame f;
    f.channel = channel;
    f.nak = l->nak_pending;
    f.epoch = l->epoch;
    f.seq = seq;
    f.ack = l->last_accepted;
    f.window = l->advertised = thr_link_window(core);
    f.type = type;
    f.payload = payload;
    f.length = length;
    l->ack_pending = 0; /* the acknowledgement rides on this frame */
    l->nak_pending = 0;
    thr_frame_write(&f, plain, put_serial, core);
}

THR_NOINLINE void thr_link_send_control(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    uint8_t frame[THR_FRAME_HEADER + 200u + THR_FRAME_CRC];
    if (length > 200u) return;
    send_frame(core, frame, THR_CHANNEL_CONTROL, 0, type, payload, length);
}

void thr_link_transmit(thr_core *core, thr_tx_entry *e)
{
    e->sent_at = core->now;
    if (e->transmissions < 255u) e->transmissions++;
    send_frame(core, e->frame, THR_CHANNEL_RELIABLE, e->frame[THR_FRAME_SEQ_AT], e->frame[THR_FRAME_TYPE_AT],
               e->frame + THR_FRAME_HEADER, e->length);
}

int thr_link_send_reliable(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    thr_link *l = &core->link;
    thr_tx_entry *e;
    if (!l->session || l->tx_count >= THR_TX_SLOTS || length > THR_TX_PAYLOAD) {
        l->dropped_notifications++;
        return 0;
    }
    e = &core->buffers.tx[l->tx_count++];
    THR_KEEP(e);
    e->length = length;
    e->transmissions = 0;
#if THR_RX_HOLD_FRAMES
    e->held = 0;
#endif
    e->frame[THR_FRAME_TYPE_AT] = type;
    if (length) thr_copy(e->frame + THR_FRAME_HEADER, payload, length);
    return 1;
}

#if THR_RX_HOLD_FRAMES
/* SACK's bitmap (bit i: the frame ack + 2 + i is held, thr_link_session.c keeps them); returns its length
 * without trailing zero bytes. Here rather than beside the receive side so that sending calls nothing above it. */
static uint8_t held_bitmap(const thr_core *core, uint8_t *bitmap)
{
    uint8_t i, n = 0;
    for (i = 0; i < (THR_RX_HOLD_FRAMES + 7u) / 8u; i++) bitmap[i] = 0;
    for (i = 0; i < THR_RX_HOLD_FRAMES; i++) {
        const thr_held_frame *h = &core->buffers.held[i];
        uint8_t bit = (uint8_t)(h->seq - core->link.last_accepted - 2u);
        if (!h->used || bit >= THR_RX_HOLD_FRAMES) continue;
        bitmap[bit / 8u] = (uint8_t)(bitmap[bit / 8u] | (1u << (bit % 8u)));
        if (bit / 8u + 1u > n) n = (uint8_t)(bit / 8u + 1u);
    }
    return n;
}
#endif

void thr_link_flush(thr_core *core)
{
    thr_link *l = &core->link;
#if THR_RX_HOLD_FRAMES
    if (l->sack_pending) { /* first, so that its bitmap arrives before the acks the reliable frames carry */
        uint8_t bitmap[(THR_RX_HOLD_FRAMES + 7u) / 8u], n = held_bitmap(core, bitmap);
        l->sack_pending = 0;
        if (l->session && l->sack_peer && n) thr_link_send_control(core, THR_MSG_SACK, bitmap, n);
    }
#endif
    while (l->session && l->tx_sent < l->tx_count && l->tx_sent < l->peer_window) {
        thr_tx_entry *e = &core->buffers.tx[l->tx_sent++];
        THR_KEEP(e);
        e->frame[THR_FRAME_SEQ_AT] = l->next_seq++;
        thr_link_transmit(core, e);
    }
    if (l->session && (l->ack_pending || l->nak_pending || (l->advertised == 0u && thr_link_window(core) > 0u)))
        thr_link_send_control(core, THR_MSG_ACK, 0, 0);
}

int thr_notify(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length)
{
    if (core->notify) core->notify(core->notify_ctx, type, payload, length);
    return !core->link.session || thr_link_send_reliable(core, type, payload, length);
}

void thr_link_send_fault(thr_core *core, thr_fault fault, uint8_t channel, uint32_t at)
{
    uint8_t payload[THR_FAULT_SIZE];
    thr_put_fault_fault(payload, fault);
    thr_put_fault_channel(payload, channel);
    thr_put_fault_at_time(payload, at);
    (void)thr_notify(core, THR_MSG_FAULT, payload, THR_FAULT_SIZE);
}

void thr_link_report(thr_core *core)
{
    uint8_t p, waiting = 0;
    if (core->stopped_reason) {
        uint8_t payload[THR_ENGINE_STOPPED_SIZE];
        thr_put_engine_stopped_reason(payload, (thr_stop_reason)(core->stopped_reason - 1u));
        thr_put_engine_stopped_at_time(payload, core->stopped_at);
        core->stopped_reason = 0;
        thr_notify(core, THR_MSG_ENGINE_STOPPED, payload, THR_ENGINE_STOPPED_SIZE);
    }
    for (p = 0; p < THR_MAX_PLAYERS; p++) {
        thr_player *pl = &core->player[p];
        uint8_t payload[THR_PLAYER_FINISHED_SIZE];
        if (!pl->finished_handle) continue;
        if (core->link.session && core->link.tx_count >= THR_TX_SLOTS) {
            waiting = 1; /* tried again after the next tick */
            continue;
        }
        thr_put_player_finished_player(payload, p);
        thr_put_player_finished_handle(payload, (uint8_t)(pl->finished_handle - 1u));
        thr_put_player_finished_at_time(payload, pl->finished_at);
        pl->finished_handle = 0;
        thr_notify(core, THR_MSG_PLAYER_FINISHED, payload, THR_PLAYER_FINISHED_SIZE); /* there is room: never refused */
    }
    core->reports = waiting;
}

uint8_t thr_link_put_text(uint8_t *text, const char *s, uint8_t max)
{
    uint8_t k = 0;
    while (s && s[k] && k < max) {
        text[k] = (uint8_t)s[k];
        k++;
    }
    return k;
}
