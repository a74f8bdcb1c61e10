/* Frame receiver (PROTOCOL.md §2.5) and payload checker (§5.1): pure functions of their input. */
#include "thr_internal.h"
#include "thr_link.h"

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
THR_NOINLINE static int32_t cobs_decode(uint8_t *buf, uint16_t length)
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
    if (byte != 0u) {
        if (rx->overflowed) return 0;
        if (rx->length >= rx->capacity) {   /* too long: drop it whole, store nothing more */
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
    if (length == 0u) return 0;   /* idle fill */
    n = cobs_decode(b, length);
    if (n < 0) return -THR_RX_COBS_INVALID;
    if (n < 12) return -THR_RX_TOO_SHORT;
    if (n - 12 > (int32_t)rx->max_payload) return -THR_RX_OVERSIZE;
    if (thr_crc32c_update(0, b, (uint32_t)n - 4u) != thr_get32(b + n - 4)) return -THR_RX_CRC_MISMATCH;
    if (b[0] != 1u) return -THR_RX_BAD_VERSION;
    if (b[1] & 0xF8u) return -THR_RX_BAD_FLAGS;
    if ((b[1] & 3u) == 3u) return -THR_RX_BAD_CHANNEL;
    frame->channel = b[1] & 3u;
    frame->nak = (uint8_t)((b[1] >> 2) & 1u);
    frame->epoch = (uint16_t)thr_get16(b + 2);
    frame->seq = b[4];
    frame->ack = b[5];
    frame->window = b[6];
    frame->type = b[7];
    frame->payload = b + 8;
    frame->length = (uint16_t)(n - 12);
    return 1;
}

/* Size of a fixed-size field code, 0 for the variable ones. */
static unsigned fixed_size(uint8_t code)
{
    static const uint8_t sizes[10] = { 0, 1, 2, 4, 2, 4, 1, 0, 0, 0 };
    return code < 10u ? sizes[code] : 0u;
}

/* Checks `count` fields from schema position *s; advances *s past them and *pos past the data.
 * Decodes the first THR_MSG_MAX_FIELDS into values[] (fixed fields by value, i16 sign-extended;
 * the others by their offset). */
static unsigned check_fields(const uint8_t **s, unsigned count, const uint8_t *p, uint16_t length, uint16_t *pos,
                             uint8_t *field, uint32_t *values)
{
    const uint8_t *c = *s;
    unsigned f, at = *pos, r = 0;
    for (f = 0; f < count && !r; f++) {
        uint8_t code = *c++;
        unsigned size = fixed_size(code);
        uint32_t v = at;
        *field = (uint8_t)f;
        if (size) {
            unsigned k = size;
            if (length - at < size) { r = THR_PL_TRUNCATED; break; }
            if (code == 6u && p[at] > 1u) { r = THR_PL_INVALID_BOOL; break; }
            v = 0;
            while (k--) v = v << 8 | p[at + k];
            if (code == 4u && v >= 0x8000u) v |= 0xFFFF0000u;
            at += size;
        } else if (code == 8u) {   /* bytes: the rest */
            at = length;
        } else {                   /* str or list: a count byte first */
            uint8_t max = *c++, n;
            if (at >= length) { r = THR_PL_TRUNCATED; break; }
            n = p[at++];
            if (code == 7u) {
                if (n > max) r = THR_PL_STRING_TOO_LONG;
                else if (n > length - at) r = THR_PL_TRUNCATED;
                else if (!thr_utf8_valid(p + at, n)) r = THR_PL_INVALID_UTF8;
                if (r) { at--; break; }   /* a bad string is reported where it starts */
                at += n;
            } else {
                uint8_t items = *c++, i;
                uint32_t scratch[THR_MSG_MAX_FIELDS];
                uint8_t inner;
                const uint8_t *item = c;
                if (n > max) { r = THR_PL_LIST_TOO_LONG; break; }
                for (i = 0; i < n && !r; i++) {
                    uint16_t inner_pos = (uint16_t)at;
                    c = item;
                    r = check_fields(&c, items, p, length, &inner_pos, &inner, scratch);   /* items hold no lists */
                    at = inner_pos;
                }
                /* move past the item codes (items hold fixed fields and strings only) */
                c = item;
                for (i = 0; i < items; i++) {
                    if (*c++ == 7u) c++;
                }
            }
        }
        if (f < THR_MSG_MAX_FIELDS) values[f] = v;
    }
    *s = c;
    *pos = (uint16_t)at;
    return r;
}

unsigned thr_msg_check(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length,
                       uint8_t *field, uint16_t *offset)
{
    uint32_t values[THR_MSG_MAX_FIELDS];
    return thr_msg_decode(schema, type, payload, length, field, offset, values);
}

unsigned thr_msg_decode(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length,
                        uint8_t *field, uint16_t *offset, uint32_t *values)
{
    const uint8_t *s = schema;
    uint16_t pos = 0;
    unsigned r, count;
    *field = 0;
    *offset = 0;
    /* find the type: entries are id, field count, codes (str: +max; list: +max +items +codes) */
    while (*s != 0xFFu && *s != type) {
        unsigned fields = s[1], f;
        s += 2;
        for (f = 0; f < fields; f++) {
            uint8_t code = *s++;
            if (code == 7u) s++;
            else if (code == 9u) { unsigned items = s[1], k; s += 2; for (k = 0; k < items; k++) { if (*s++ == 7u) s++; } }
        }
    }
    if (*s == 0xFFu) return THR_PL_UNKNOWN_TYPE;
    count = s[1];
    s += 2;
    r = check_fields(&s, count, payload, length, &pos, field, values);
    *offset = pos;
    if (r) return r;
    return pos != length ? THR_PL_TRAILING_BYTES : 0u;
}
