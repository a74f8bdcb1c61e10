/* The payload checker (thr_message.h): walks a payload along the field codes of its type. */
#include "thr_bytes.h"
#include "thr_message.h"
#include "thr_wire.h"

/* Size of a fixed-size field code, 0 for the variable ones. */
static unsigned fixed_size(uint8_t code)
{
    static const uint8_t sizes[THR_FIELD_LIST + 1] = { 0,
                                                       [THR_FIELD_U8] = 1,
                                                       [THR_FIELD_U16] = 2,
                                                       [THR_FIELD_U32] = 4,
                                                       [THR_FIELD_I16] = 2,
                                                       [THR_FIELD_I32] = 4,
                                                       [THR_FIELD_BOOL] = 1 };
    return code <= THR_FIELD_LIST ? sizes[code] : 0u;
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
            if (length - at < size) {
                r = THR_PL_TRUNCATED;
                break;
            }
            if (code == THR_FIELD_BOOL && p[at] > 1u) {
                r = THR_PL_INVALID_BOOL;
                break;
            }
            v = 0;
            while (k--) v = v << 8 | p[at + k];
            if (code == THR_FIELD_I16 && v >= 0x8000u) v |= 0xFFFF0000u;
            at += size;
        } else if (code == THR_FIELD_BYTES) { /* bytes: the rest */
            at = length;
        } else { /* str or list: a count byte first */
            uint8_t max = *c++, n;
            if (at >= length) {
                r = THR_PL_TRUNCATED;
                break;
            }
            n = p[at++];
            if (code == THR_FIELD_STR) {
                if (n > max)
                    r = THR_PL_STRING_TOO_LONG;
                else if (n > length - at)
                    r = THR_PL_TRUNCATED;
                else if (!thr_utf8_valid(p + at, n))
                    r = THR_PL_INVALID_UTF8;
                if (r) {
                    at--;
                    break;
                } /* a bad string is reported where it starts */
                at += n;
            } else {
                uint8_t items = *c++, i;
                uint32_t scratch[THR_MSG_MAX_FIELDS];
                uint8_t inner;
                const uint8_t *item = c;
                if (n > max) {
                    r = THR_PL_LIST_TOO_LONG;
                    break;
                }
                for (i = 0; i < n && !r; i++) {
                    uint16_t inner_pos = (uint16_t)at;
                    c = item;
                    r = check_fields(&c, items, p, length, &inner_pos, &inner, scratch); /* items hold no lists */
                    at = inner_pos;
                }
                /* move past the item codes (items hold fixed fields and strings only) */
                c = item;
                for (i = 0; i < items; i++) {
                    if (*c++ == THR_FIELD_STR) c++;
                }
            }
        }
        if (f < THR_MSG_MAX_FIELDS) values[f] = v;
    }
    *s = c;
    *pos = (uint16_t)at;
    return r;
}

unsigned thr_msg_check(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length, uint8_t *field,
                       uint16_t *offset)
{
    uint32_t values[THR_MSG_MAX_FIELDS];
    return thr_msg_decode(schema, type, payload, length, field, offset, values);
}

unsigned thr_msg_decode(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length, uint8_t *field,
                        uint16_t *offset, uint32_t *values)
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
            if (code == THR_FIELD_STR)
                s++;
            else if (code == THR_FIELD_LIST) {
                unsigned items = s[1], k;
                s += 2;
                for (k = 0; k < items; k++) {
                    if (*s++ == THR_FIELD_STR) s++;
                }
            }
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
