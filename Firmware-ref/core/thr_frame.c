/* The frame codec (thr_frame.h): receiver (PROTOCOL.md §2.5) and encoder (§2.2-2.4). */
#include "thr_bytes.h"
#include "thr_frame.h"
#include "thr_wire.h"

const char *thr_reason_name(unsigned reason)
{
    /* one string of NUL-separated names (no table of pointers): the n-th name follows n NULs */
    static const char names[] =
        "none\0oversize\0cobs_invalid\0too_short\0crc_mismatch\0bad_version\0bad_flags\0bad_channel\0"
        "unknown_type\0truncated\0trailing_bytes\0invalid_bool\0string_too_long\0invalid_utf8\0"
        "list_too_long\0unknown";
    const char *name = names;
    if (reason > THR_PL_LIST_TOO_LONG) reason = THR_PL_LIST_TOO_LONG + 1u;
    while (reason--) {
        while (*name) name++;
        name++;
    }
    return name;
}

void thr_frame_rx_init(thr_frame_rx *rx, uint8_t *buffer, uint16_t capacity, uint16_t max_payload)
{
    rx->buffer = buffer;
    rx->capacity = capacity;
    rx->max_payload = max_payload;
    rx->length = 0;
    rx->overflowed = 0;
}

/* COBS-decodes the piece in place (output never overtakes input). Returns the decoded length or -1. */
static int32_t cobs_decode(uint8_t *buf, uint16_t length)
{
    uint16_t in = 0, out = 0;
    while (in < length) {
        uint8_t code = buf[in++];
        uint16_t k;
        if (code == 0u || code - 1u > (unsigned)(length - in)) return -1;
        for (k = 1; k < code; k++) buf[out++] = buf[in++];
        if (code < 0xFFu && in < length) buf[out++] = 0;
    }
    return out;
}

int thr_frame_rx_byte(thr_frame_rx *rx, uint8_t byte, thr_frame *frame)
{
    int32_t n;
    uint16_t length;
    uint8_t *b = rx->buffer;
    THR_KEEP(b);
    if (byte != 0u) {
        if (rx->overflowed) return 0;
        if (rx->length >= rx->capacity) { /* too long: drop it whole, store nothing more */
            rx->overflowed = 1;
            rx->length = 0;
            return 0;
        }
        b[rx->length++] = byte;
        return 0;
    }
    length = rx->length;
    rx->length = 0;
    if (rx->overflowed) {
        rx->overflowed = 0;
        return -THR_RX_OVERSIZE;
    }
    if (length == 0u) return 0; /* idle fill */
    n = cobs_decode(b, length);
    if (n < 0) return -THR_RX_COBS_INVALID;
    if (n < 12) return -THR_RX_TOO_SHORT;
    if (n - 12 > (int32_t)rx->max_payload) return -THR_RX_OVERSIZE;
    if (thr_crc32c_update(0, b, (uint32_t)n - 4u) != thr_get32(b + n - 4)) return -THR_RX_CRC_MISMATCH;
    if (b[0] != THR_FRAME_FORMAT) return -THR_RX_BAD_VERSION;
    if (b[1] & 0xF8u) return -THR_RX_BAD_FLAGS;
    if ((b[1] & 3u) == 3u) return -THR_RX_BAD_CHANNEL;
    frame->channel = b[1] & 3u;
    frame->nak = (uint8_t)((b[1] >> 2) & 1u);
    frame->epoch = (uint16_t)thr_get16(b + THR_FRAME_EPOCH_AT);
    frame->seq = b[THR_FRAME_SEQ_AT];
    frame->ack = b[THR_FRAME_ACK_AT];
    frame->window = b[THR_FRAME_WINDOW_AT];
    frame->type = b[THR_FRAME_TYPE_AT];
    frame->payload = b + THR_FRAME_HEADER;
    frame->length = (uint16_t)(n - 12);
    return 1;
}

void thr_frame_emit(const uint8_t *frame, uint32_t n, thr_frame_put put, void *ctx)
{
    static const uint8_t zero = 0;
    uint32_t i = 0;
    put(ctx, &zero, 1);
    for (;;) {
        uint32_t j = i;
        uint8_t code;
        while (j < n && frame[j] != 0u && j - i < 254u) j++;
        code = (uint8_t)(j - i + 1u);
        put(ctx, &code, 1);
        if (j > i) put(ctx, frame + i, j - i);
        if (j == n) break;
        i = frame[j] == 0u ? j + 1u : j;
    }
    put(ctx, &zero, 1);
}

void thr_frame_write(const thr_frame *f, uint8_t *plain, thr_frame_put put, void *ctx)
{
    uint32_t n = THR_FRAME_HEADER + f->length;
    plain[THR_FRAME_VERSION_AT] = THR_FRAME_FORMAT;
    plain[THR_FRAME_FLAGS_AT] = (uint8_t)(f->channel | f->nak << 2);
    thr_put16(plain + THR_FRAME_EPOCH_AT, f->epoch);
    plain[THR_FRAME_SEQ_AT] = f->seq;
    plain[THR_FRAME_ACK_AT] = f->ack;
    plain[THR_FRAME_WINDOW_AT] = f->window;
    plain[THR_FRAME_TYPE_AT] = f->type;
    if (f->payload != plain + THR_FRAME_HEADER) thr_copy(plain + THR_FRAME_HEADER, f->payload, f->length);
    thr_put32(plain + n, thr_crc32c_update(0, plain, n));
    thr_frame_emit(plain, n + THR_FRAME_CRC, put, ctx);
}
