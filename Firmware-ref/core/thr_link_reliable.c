/* The reliable channel's sender (PROTOCOL.md §6): cumulative acknowledgements free the send
 * ring, NAKs and timeouts resend (go-back-N; with THR_RX_HOLD_FRAMES, only what the host's SACK
 * shows missing), and the timeout follows RFC 6298's estimate. */
#include "thr_link.h"

#define RTO_MIN           10000u
#define RTO_MAX           4000000u
#define MAX_TRANSMISSIONS 25u

/* RTO from the estimate (§6.2), or the initial value before any sample. */
static uint32_t estimated_rto(const thr_link *l)
{
    uint32_t rto;
    if (l->srtt == 0u) return THR_RTO_INITIAL;
    rto = l->srtt + (4u * l->rttvar > l->srtt / 2u ? 4u * l->rttvar : l->srtt / 2u);
    return rto < RTO_MIN ? RTO_MIN : rto > RTO_MAX ? RTO_MAX : rto;
}

THR_NOINLINE static void rtt_sample(thr_link *l, uint32_t r)
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

/* Resends the oldest n frames in flight, oldest first (not those the host holds). */
static void resend(thr_core *core, uint8_t n)
{
    thr_link *l = &core->link;
    uint8_t i;
    for (i = 0; i < n; i++) {
#if THR_RX_HOLD_FRAMES
        if (core->buffers.tx[i].held) continue;
#endif
        thr_link_transmit(core, &core->buffers.tx[i]);
        l->retransmissions++;
    }
}

#if THR_RX_HOLD_FRAMES
/* A SACK (bit i: the host holds the frame ack + 2 + i): marks those frames; returns how many frames
 * in flight come up to the newest held one (the frames not held among them are missing). */
static uint8_t mark_held(thr_core *core, const thr_frame *f)
{
    uint8_t i, upto = 0;
    core->link.peer_holds = 1;
    for (i = 0; i < core->link.tx_sent; i++) {
        thr_tx_entry *e = &core->buffers.tx[i];
        uint8_t bit = (uint8_t)(e->frame[THR_FRAME_SEQ_AT] - f->ack - 2u);
        if (bit / 8u < f->length && (f->payload[bit / 8u] >> (bit % 8u)) & 1u) e->held = 1;
        if (e->held) upto = (uint8_t)(i + 1u);
    }
    return upto;
}
#endif

void thr_link_on_ack(thr_core *core, const thr_frame *f)
{
    thr_link *l = &core->link;
    uint8_t last_acked = (uint8_t)(l->next_seq - l->tx_sent - 1u);
    uint8_t k = (uint8_t)(f->ack - last_acked);
    uint8_t nak = f->nak;
#if THR_RX_HOLD_FRAMES
    uint8_t upto = 0; /* a SACK's missing frames lie among this many oldest in flight */
#endif
    l->peer_window = f->window > 127u ? 127u : f->window;
#if THR_RX_HOLD_FRAMES
    if (f->channel == THR_CHANNEL_CONTROL && f->type == THR_MSG_SACK) {
        /* frames missing below a held one are resent like a NAK's, after the acknowledged ones leave */
        upto = mark_held(core, f);
        nak = upto > 0u;
    } else if (l->peer_holds) {
        nak = 0; /* a host that holds frames says what is missing in its SACKs */
    }
#endif
    if (k >= 1u && k <= l->tx_sent) {
        const thr_tx_entry *newest = &core->buffers.tx[k - 1u];
        THR_KEEP(newest);
        /* Karn's rule, except that the very first sample may come from a resent frame (§6.2) */
        if (newest->transmissions == 1u || l->srtt == 0u) {
            rtt_sample(l, core->now - newest->sent_at);
            l->unsampled_acks = 0;
        } else if (++l->unsampled_acks >= 8u) { /* heavy loss starves the estimator: undo a back-off */
            uint32_t floor = estimated_rto(l);
            l->unsampled_acks = 0;
            l->rto = l->rto / 2u > floor ? l->rto / 2u : floor;
        }
        thr_copy(&core->buffers.tx[0], &core->buffers.tx[k],
                 (uint32_t)(l->tx_count - k) * (uint32_t)sizeof core->buffers.tx[0]);
        l->tx_count = (uint8_t)(l->tx_count - k);
        l->tx_sent = (uint8_t)(l->tx_sent - k);
        last_acked = f->ack;
        if (l->in_recovery) {
            /* an answer to the resend (not to the original) means the receiver dropped what followed */
            l->in_recovery = 0;
            if (core->now - l->recovery_at >= l->srtt / 2u) resend(core, l->tx_sent);
        }
#if THR_RX_HOLD_FRAMES
        upto = (uint8_t)(upto > k ? (unsigned)(upto - k) : 0u);
#endif
    }
    if (nak && l->tx_sent && f->ack == last_acked) {
        /* at most once per smoothed round trip for the same ack (no limit before the first sample) */
        if (l->srtt == 0u || l->last_nak_ack != f->ack || core->now - l->last_nak_at >= l->srtt) {
            l->last_nak_ack = f->ack;
            l->last_nak_at = core->now;
#if THR_RX_HOLD_FRAMES
            resend(core, l->peer_holds ? upto : l->tx_sent);
#else
            resend(core, l->tx_sent);
#endif
        }
    }
}

void thr_link_check_timeout(thr_core *core)
{
    thr_link *l = &core->link;
    if (!l->session || l->tx_sent == 0u) return;
    if (core->now - core->buffers.tx[0].sent_at < l->rto) return;
    if (core->buffers.tx[0].transmissions >= MAX_TRANSMISSIONS) {
        l->session = 0; /* the host is gone: its next HELLO opens a new session */
        l->tx_count = l->tx_sent = 0;
        return;
    }
    /* back off only when the host has said nothing since the frame went out (§6.1) */
    if ((int32_t)(l->last_rx_at - core->buffers.tx[0].sent_at) <= 0)
        l->rto = l->rto * 2u > RTO_MAX ? RTO_MAX : l->rto * 2u;
    thr_link_transmit(core, &core->buffers.tx[0]); /* the oldest frame only: a spurious timeout stays cheap */
    l->retransmissions++;
    l->in_recovery = 1;
    l->recovery_at = core->now;
}
