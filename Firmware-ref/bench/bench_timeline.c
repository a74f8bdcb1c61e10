/* The benchmark timeline (bench_timeline.h), in the format of Protocol/TIMELINE.md. */
#include "bench_timeline.h"

#include "thr_bytes.h"

static uint32_t put_varint(uint8_t *out, uint32_t value)
{
    uint32_t n = 0;
    while (value >= 0x80u) {
        out[n++] = (uint8_t)(value | 0x80u);
        value >>= 7;
    }
    out[n++] = (uint8_t)value;
    return n;
}

static uint32_t timeline(uint8_t *tl, uint32_t events, int ramping)
{
    uint32_t n = 8, i, crc;
    /* header: duration 5000 ms, 1 shape (stride 6: continuous, sustained, attack 0.3; ramping: not
     * sustained, attack 1 and decay 1, a second each) */
    tl[0] = 0x54;
    tl[1] = 0x4C;
    tl[2] = 1;
    tl[3] = 0x04;
    n += put_varint(tl + n, 5000);
    tl[n++] = 1;
    tl[n++] = ramping ? 0x09 : 0x0D;
    tl[n++] = 0x60;
    tl[n++] = 0x80;
    tl[n++] = ramping ? 0xFF : 0x4C;
    tl[n++] = ramping ? 0xFF : 0x00;
    tl[n++] = 0x40;
    for (i = 0; i < events; i++) { /* event i at i ms, lasting to 5000 ms */
        tl[n++] = 0x00;
        tl[n++] = i == 0u ? 0x00 : 0x01;
        n += put_varint(tl + n, 5000u - i);
    }
    /* an intensity curve over the whole span, 3 points inline (tag 0xC2) */
    tl[n++] = 0xC2;
    n += put_varint(tl + n, 0);
    tl[n++] = 0x00;
    tl[n++] = 0xFF;
    n += put_varint(tl + n, 2000);
    tl[n++] = 0x40;
    n += put_varint(tl + n, 3001u - events);
    tl[n++] = 0xC0;
    crc = thr_crc32_update(thr_crc32_update(0, tl, 4), tl + 8, n - 8u);
    tl[4] = (uint8_t)crc;
    tl[5] = (uint8_t)(crc >> 8);
    tl[6] = (uint8_t)(crc >> 16);
    tl[7] = (uint8_t)(crc >> 24);
    return n;
}

uint32_t bench_timeline(uint8_t *tl, uint32_t events)
{
    return timeline(tl, events, 0);
}

uint32_t bench_timeline_ramping(uint8_t *tl, uint32_t events)
{
    return timeline(tl, events, 1);
}
