/* Byte helpers (thr_bytes.h): the bottom layer, calling nothing. */
#include "thr_bytes.h"

uint32_t thr_crc_reflected(uint32_t poly, uint32_t crc, const uint8_t *data, uint32_t length)
{
    uint32_t i;
    crc = ~crc;
    for (i = 0; i < length; i++) {
        unsigned bit;
        crc ^= data[i];
        for (bit = 0; bit < 8u; bit++) crc = (crc >> 1) ^ (poly & (0u - (crc & 1u)));
    }
    return ~crc;
}

uint32_t thr_crc32c_update(uint32_t crc, const uint8_t *data, uint32_t length)
{
    return thr_crc_reflected(0x82F63B78u, crc, data, length);
}

uint32_t thr_crc32_update(uint32_t crc, const uint8_t *data, uint32_t length)
{
    return thr_crc_reflected(0xEDB88320u, crc, data, length);
}

int thr_utf8_valid(const uint8_t *s, uint32_t n)
{
    uint32_t i = 0;
    while (i < n) {
        uint32_t c = s[i++], extra, cp, least;
        if (c < 0x80u) continue;
        if (c < 0xC2u || c > 0xF4u) return 0; /* a continuation byte, an overlong lead, past U+10FFFF */
        extra = c < 0xE0u ? 1u : c < 0xF0u ? 2u : 3u;
        least = extra == 1u ? 0x80u : extra == 2u ? 0x800u : 0x10000u; /* below: an overlong form */
        cp = c & (0x3Fu >> extra);
        if (n - i < extra) return 0;
        while (extra--) {
            if ((s[i] & 0xC0u) != 0x80u) return 0;
            cp = cp << 6 | (s[i++] & 0x3Fu);
        }
        if (cp < least || cp > 0x10FFFFu || cp >> 11 == 0x1Bu) return 0; /* 0x1B: U+D800..U+DFFF, surrogates */
    }
    return 1;
}

void thr_copy(void *dst, const void *src, uint32_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    while (n--) *d++ = *s++;
}

uint8_t *thr_put_le(uint8_t *p, uint32_t v, unsigned width)
{
    while (width--) {
        *p++ = (uint8_t)v;
        v >>= 8;
    }
    return p;
}
