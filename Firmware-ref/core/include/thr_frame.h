/* The frame codec (Protocol/PROTOCOL.md §2): COBS framing, the 8-byte header and the CRC-32C, in
 * both directions. Pure functions of their input, above the byte helpers only; the link uses them,
 * and so do the tests, the fuzzers and the simulator. */
#ifndef THR_FRAME_H
#define THR_FRAME_H

#include <stdint.h>

/* Rejection reasons of a received piece (§2.5) and of a payload (§5.1, thr_message.h). */
enum {
    THR_RX_NONE = 0,
    THR_RX_OVERSIZE,
    THR_RX_COBS_INVALID,
    THR_RX_TOO_SHORT,
    THR_RX_CRC_MISMATCH,
    THR_RX_BAD_VERSION,
    THR_RX_BAD_FLAGS,
    THR_RX_BAD_CHANNEL,
    THR_PL_UNKNOWN_TYPE,
    THR_PL_TRUNCATED,
    THR_PL_TRAILING_BYTES,
    THR_PL_INVALID_BOOL,
    THR_PL_STRING_TOO_LONG,
    THR_PL_INVALID_UTF8,
    THR_PL_LIST_TOO_LONG
};
/* The frame header (§2): where each field sits, its size; the CRC-32C follows the payload. */
#define THR_FRAME_VERSION_AT 0u
#define THR_FRAME_FLAGS_AT   1u
#define THR_FRAME_EPOCH_AT   2u
#define THR_FRAME_SEQ_AT     4u
#define THR_FRAME_ACK_AT     5u
#define THR_FRAME_WINDOW_AT  6u
#define THR_FRAME_TYPE_AT    7u
#define THR_FRAME_HEADER     8u
#define THR_FRAME_CRC        4u

/* The spec's name of a reason ("crc_mismatch", ...), static. */
const char *thr_reason_name(unsigned reason);

/* One frame's header fields and its payload. */
typedef struct thr_frame {
    uint8_t channel, nak;
    uint16_t epoch;
    uint8_t seq, ack, window, type;
    const uint8_t *payload;
    uint16_t length;
} thr_frame;

/* ---- receiving ---- */
/* Receives bytes into a caller-supplied buffer of capacity L(P) = (P+12) + (P+12)/254 + 1. */
typedef struct thr_frame_rx {
    uint8_t *buffer;
    uint16_t capacity;
    uint16_t max_payload;
    uint16_t length;
    uint8_t overflowed;
} thr_frame_rx;

/* Capacity needed for a stated max_payload. */
#define THR_FRAME_RX_CAPACITY(P) ((P) + 12u + ((P) + 12u) / 254u + 1u)

void thr_frame_rx_init(thr_frame_rx *rx, uint8_t *buffer, uint16_t capacity, uint16_t max_payload);
/* Feeds one byte. Returns 1 with *frame filled (valid until the next call), 0 for nothing, or a
 * negative rejection reason (-THR_RX_*) when a piece was discarded. */
int thr_frame_rx_byte(thr_frame_rx *rx, uint8_t byte, thr_frame *frame);

/* ---- sending ---- */
/* Where the bytes go: called several times per frame, block by block. */
typedef void (*thr_frame_put)(void *ctx, const uint8_t *data, uint32_t length);

/* Writes 00 COBS(frame) 00 through `put`, block by block (no buffer): `frame` is the header, the
 * payload and the CRC, `n` bytes in all. */
void thr_frame_emit(const uint8_t *frame, uint32_t n, thr_frame_put put, void *ctx);

/* Encodes `f` into `plain` (its header; its payload, copied unless it already sits at plain + 8;
 * the CRC-32C) and writes it through `put` as thr_frame_emit does. `plain` holds 12 + f->length
 * bytes. */
void thr_frame_write(const thr_frame *f, uint8_t *plain, thr_frame_put put, void *ctx);

#endif
