/* Timeline validation against the shared vectors (Protocol/vectors/timeline), record reading. */
#include <string.h>

#include "test.h"
#include "thr_bytes.h"
#include "thr_timeline.h"
#include "generated/timeline_vectors.h"

static void vectors(void)
{
    unsigned i;
    for (i = 0; i < TL_VECTOR_COUNT; i++) {
        const tl_vector *v = &tl_vectors[i];
        thr_tl_info info;
        thr_tl_result r = thr_tl_validate(v->bytes, v->length, &info);
        if ((int)r.error != v->error || r.offset != v->offset) {
            fprintf(stderr, "vector %s: got %s at %u, expected %s at %u\n", v->id, thr_tl_error_name(r.error),
                    (unsigned)r.offset, thr_tl_error_name((thr_tl_error)v->error), (unsigned)v->offset);
        }
        CHECK_EQ(r.error, v->error);
        CHECK_EQ(r.offset, v->offset);
        if (v->error == 0 && r.error == THR_TL_OK) {
            CHECK_EQ(info.duration, v->duration_ticks);
            CHECK_EQ(info.record_count, v->records);
        }
    }
}

static void crc_check_value(void)
{
    CHECK_EQ(thr_crc32_update(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
    /* chaining equals one pass */
    CHECK_EQ(thr_crc32_update(thr_crc32_update(0, (const uint8_t *)"1234", 4), (const uint8_t *)"56789", 5),
             0xCBF43926u);
}

/* Every prefix and every single-bit flip of every valid vector is rejected or accepted without
 * reading out of bounds (ASan watches), and a prefix is never valid unless it is the whole. */
static void mutations(void)
{
    unsigned i;
    uint8_t copy[4096];
    for (i = 0; i < TL_VECTOR_COUNT; i++) {
        const tl_vector *v = &tl_vectors[i];
        uint32_t n, bit;
        thr_tl_info info;
        if (v->error != 0 || v->length > sizeof copy) continue;
        for (n = 0; n < v->length; n++) {
            thr_tl_result r = thr_tl_validate(v->bytes, n, &info);
            CHECK(r.error != THR_TL_OK);
        }
        for (bit = 0; bit < v->length * 8u; bit++) {
            thr_tl_result r;
            memcpy(copy, v->bytes, v->length);
            copy[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
            r = thr_tl_validate(copy, v->length, &info);
            CHECK(r.error != THR_TL_OK); /* the CRC catches every single-bit error */
        }
    }
}

static void record_walk(void)
{
    unsigned i;
    for (i = 0; i < TL_VECTOR_COUNT; i++) {
        const tl_vector *v = &tl_vectors[i];
        thr_tl_info info;
        thr_record rec;
        uint32_t off, base = 0, count = 0;
        if (v->error != 0 || thr_tl_validate(v->bytes, v->length, &info).error != THR_TL_OK) continue;
        for (off = info.records; off < info.records_end; off = rec.next) {
            if (!thr_tl_read_record(v->bytes, &info, off, base, &rec)) break;
            CHECK(rec.start >= base);
            base = rec.start;
            count++;
        }
        CHECK_EQ(count, info.record_count);
    }
}

void timeline_tests(void)
{
    run_test("timeline vectors", vectors);
    run_test("crc32", crc_check_value);
    run_test("timeline mutations", mutations);
    run_test("record walk", record_walk);
}
