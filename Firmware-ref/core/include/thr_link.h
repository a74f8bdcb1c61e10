/* The serial link (Protocol/PROTOCOL.md): frame receiver, message checker, COBS and CRC-32C.
 * The board's use of them (session, reliable window, dispatch) is inside thr_core_poll; these
 * pieces are public for tests, fuzzers and the simulator. */
#ifndef THR_LINK_H
#define THR_LINK_H

#include <stdint.h>

/* Rejection reasons of a received piece (§2.5) and of a payload (§5.1). */
enum {
    THR_RX_NONE = 0, THR_RX_OVERSIZE, THR_RX_COBS_INVALID, THR_RX_TOO_SHORT, THR_RX_CRC_MISMATCH,
    THR_RX_BAD_VERSION, THR_RX_BAD_FLAGS, THR_RX_BAD_CHANNEL,
    THR_PL_UNKNOWN_TYPE, THR_PL_TRUNCATED, THR_PL_TRAILING_BYTES, THR_PL_INVALID_BOOL,
    THR_PL_STRING_TOO_LONG, THR_PL_INVALID_UTF8, THR_PL_LIST_TOO_LONG
};
const char *thr_reason_name(unsigned reason);

typedef struct thr_frame {
    uint8_t channel, nak;
    uint16_t epoch;
    uint8_t seq, ack, window, type;
    const uint8_t *payload;
    uint16_t length;
} thr_frame;

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

/* Checks a payload against a schema table (thr_messages.h). Returns 0 or a THR_MSG_* reason;
 * *field and *offset say where. */
unsigned thr_msg_check(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length,
                       uint8_t *field, uint16_t *offset);

/* thr_msg_check that also decodes the first THR_MSG_MAX_FIELDS top-level fields into values[]:
 * fixed-size fields by value (little-endian; i16 sign-extended), strings, bytes and lists by the
 * offset where they start. `values` may be NULL. */
#define THR_MSG_MAX_FIELDS 8u
unsigned thr_msg_decode(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length,
                        uint8_t *field, uint16_t *offset, uint32_t *values);

/* Writes 00 COBS(frame) 00 through `put`, block by block (no buffer): `frame` is the header, the
 * payload and the CRC, `n` bytes in all. */
void thr_frame_emit(const uint8_t *frame, uint32_t n, void (*put)(void *ctx, const uint8_t *data, uint32_t length),
                    void *ctx);

#endif
