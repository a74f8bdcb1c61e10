/* The fuzzers' CRCs: table-driven, one table lookup a byte instead of the core's eight shifts, which
 * were the largest single cost of an input (every frame is checked both ways). The fuzz build
 * compiles core/thr_bytes.c with its two CRCs renamed to *_bitwise (see the Makefile), so every
 * caller in the core lands here. The first calls are also made the core's way and must agree: the
 * bitwise loop stays covered and the tables are checked against it. */
#include <stdint.h>
#include <stdlib.h>

#include "thr_bytes.h"

typedef uint32_t crc_function(uint32_t crc, const uint8_t *data, uint32_t length);
crc_function thr_crc32c_update_bitwise, thr_crc32_update_bitwise;

#define CROSS_CHECKS 4096u

typedef struct crc_table {
    uint32_t entry[256];
    uint32_t checked; /* calls compared with the bitwise CRC so far */
    uint8_t ready;
} crc_table;

static crc_table crc32c_table, crc32_table;

/* entry[b]: the register after the core's eight steps from b; its CRC of the byte b from an initial
 * value of ~0 starts from the register b and returns the register inverted */
static void fill(crc_table *t, crc_function *bitwise)
{
    unsigned b;
    for (b = 0; b < 256u; b++) {
        uint8_t byte = (uint8_t)b;
        t->entry[b] = ~bitwise(0xFFFFFFFFu, &byte, 1);
    }
    t->ready = 1;
}

static uint32_t crc_by_table(crc_table *t, crc_function *bitwise, uint32_t crc, const uint8_t *data, uint32_t length)
{
    uint32_t i, r;
    if (!t->ready) fill(t, bitwise);
    r = ~crc;
    for (i = 0; i < length; i++) r = (r >> 8) ^ t->entry[(r ^ data[i]) & 0xFFu];
    r = ~r;
    if (t->checked < CROSS_CHECKS) {
        t->checked++;
        if (bitwise(crc, data, length) != r) abort();
    }
    return r;
}

uint32_t thr_crc32c_update(uint32_t crc, const uint8_t *data, uint32_t length)
{
    return crc_by_table(&crc32c_table, thr_crc32c_update_bitwise, crc, data, length);
}

uint32_t thr_crc32_update(uint32_t crc, const uint8_t *data, uint32_t length)
{
    return crc_by_table(&crc32_table, thr_crc32_update_bitwise, crc, data, length);
}
