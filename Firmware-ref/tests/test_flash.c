/* Flash slots: store, list, read back, erase, play, boot binding; power cuts at every byte. */
#include <string.h>

#include "test_board.h"
#include "test.h"
#include "thr_flash.h"

static stub_board board;
static uint8_t tl_a[64], tl_b[1200];
static uint32_t len_a, len_b;

/* A: one transient (0.8, 0.3) at 100 ms. B: 300 transients, a bigger timeline. */
static void make_timelines(void)
{
    static const uint8_t body_a[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    uint8_t body[1100];
    uint32_t n = 0, i;
    len_a = make_timeline(tl_a, 0, body_a, sizeof body_a);
    body[n++] = 0xAB;
    body[n++] = 0x02; /* duration 299 = AB 02 */
    body[n++] = 0x01;
    body[n++] = 0x04;
    body[n++] = 0xFF;
    body[n++] = 0x10;
    for (i = 0; i < 300u; i++) {
        body[n++] = 0x00;
        body[n++] = i ? 0x01 : 0x00;
    }
    len_b = make_timeline(tl_b, 0, body, n);
}

static void store_read_erase(void)
{
    uint8_t out[1200];
    uint32_t length = sizeof out;
    thr_tl_info info;
    make_timelines();
    CHECK_EQ(thr_tl_validate(tl_b, len_b, &info).error, THR_TL_OK);
    board_setup(&board);
    CHECK_EQ(board.core.flash.ready, 1);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl_a, len_a, 0), THR_STATUS_OK);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl_b, len_b, 1), THR_STATUS_OK);
    CHECK_EQ(thr_slot_read(&board.core, 1, 0, out, &length), THR_STATUS_OK);
    CHECK_EQ(length, len_b);
    CHECK(memcmp(out, tl_b, len_b) == 0);
    length = 10;
    CHECK_EQ(thr_slot_read(&board.core, 0, len_a - 4u, out, &length), THR_STATUS_OK);
    CHECK_EQ(length, 4); /* cut at the end of the content */
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl_a, len_a - 1u, 2), THR_STATUS_BAD_TIMELINE);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl_a, len_a, 9), THR_STATUS_NO_SUCH_SLOT);
    /* survives a reboot */
    stub_board_start(&board);
    CHECK_EQ(board.core.flash.slot[0].used, 1);
    CHECK_EQ(board.core.flash.slot[1].used, 1);
    CHECK_EQ(board.core.flash.slot[1].size, len_b);
    CHECK_EQ(board.core.flash.slot[1].hash, thr_crc32c_update(0, tl_b, len_b)); /* the upload hash */
    CHECK_EQ(board.core.flash.slot[2].used, 0);
    CHECK_EQ(thr_slot_erase(&board.core, 1), THR_STATUS_OK);
    stub_board_start(&board);
    CHECK_EQ(board.core.flash.slot[1].used, 0);
    length = 4;
    CHECK_EQ(thr_slot_read(&board.core, 1, 0, out, &length), THR_STATUS_NO_SUCH_SLOT);
}

static void play_and_boot(void)
{
    make_timelines();
    board_setup(&board);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl_a, len_a, 3), THR_STATUS_OK);
    CHECK_EQ(thr_slot_play(&board.core, 3, 1, 0), THR_STATUS_OK);
    board_run_ms(&board, 110);
    CHECK_EQ(trace_intensity_at(&board, 100), 26214);
    /* bound to boot: plays after a reboot without any host */
    CHECK_EQ(thr_slot_bind(&board.core, 3, 0, 0), THR_STATUS_OK);
    board.trace_count = 0;
    board.clock_us = 0;
    stub_board_start(&board);
    board_run_ms(&board, 110);
    CHECK_EQ(trace_intensity_at(&board, 100), 26214);
    CHECK_EQ(thr_slot_bind(&board.core, 7, 0, 0), THR_STATUS_NO_SUCH_SLOT);
    CHECK_EQ(thr_slot_bind(&board.core, THR_SLOT_NONE, 0, 0), THR_STATUS_OK);
    stub_board_start(&board);
    CHECK_EQ(board.core.flash.boot_slot, THR_SLOT_NONE);
}

/* The observable flash state: per slot (used, size, CRC) and the boot binding. */
typedef struct flash_state {
    uint8_t used[4];
    uint32_t size[4], hash[4];
    uint8_t boot;
} flash_state;

static void capture(flash_state *s)
{
    unsigned i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < 4u; i++) {
        s->used[i] = board.core.flash.slot[i].used;
        s->size[i] = s->used[i] ? board.core.flash.slot[i].size : 0u;
        s->hash[i] = s->used[i] ? board.core.flash.slot[i].hash : 0u;
    }
    s->boot = board.core.flash.boot_slot;
}

#define OPS 6
static thr_status run_op(int op)
{
    switch (op) {
    case 0: return thr_slot_store_bytes(&board.core, tl_a, len_a, 0);
    case 1: return thr_slot_store_bytes(&board.core, tl_b, len_b, 0); /* replace A by B */
    case 2: return thr_slot_bind(&board.core, 0, 0, 0);
    case 3: return thr_slot_store_bytes(&board.core, tl_a, len_a, 1);
    case 4: return thr_slot_erase(&board.core, 0);
    default: return thr_slot_bind(&board.core, 1, 0, 0);
    }
}

static void power_cuts(void)
{
    flash_state states[OPS + 1], now;
    uint32_t bytes_before[OPS + 1], cut, cuts = 0;
    int op;
    make_timelines();
    board_setup(&board);
    capture(&states[0]);
    bytes_before[0] = 0;
    for (op = 0; op < OPS; op++) {
        CHECK_EQ(run_op(op), THR_STATUS_OK);
        capture(&states[op + 1]);
        bytes_before[op + 1] = board.flash_bytes_written;
    }
    /* erases are counted by the budget too: find the total budget the sequence uses */
    for (cut = 0;; cut++) {
        int interrupted = -1;
        board_setup(&board);
        board.cut_armed = 1;
        board.bytes_until_cut = cut;
        for (op = 0; op < OPS; op++) {
            if (run_op(op) != THR_STATUS_OK || board.dead) {
                interrupted = op;
                break;
            }
        }
        if (interrupted < 0) break; /* the whole sequence fitted: every cut point was tried */
        cuts++;
        stub_board_start(&board);
        capture(&now);
        /* old or new state of the interrupted operation, nothing else */
        if (memcmp(&now, &states[interrupted], sizeof now) != 0 &&
            memcmp(&now, &states[interrupted + 1], sizeof now) != 0) {
            fprintf(stderr, "power cut at budget byte %u in op %d left an unexpected state\n", (unsigned)cut,
                    interrupted);
            CHECK(0);
            break;
        }
        /* whatever a slot holds after the cut is a valid timeline that plays */
        {
            unsigned s;
            for (s = 0; s < 2u; s++) {
                uint8_t out[1200];
                uint32_t length = sizeof out;
                thr_tl_info info;
                if (!board.core.flash.slot[s].used) continue;
                CHECK_EQ(thr_slot_read(&board.core, (uint8_t)s, 0, out, &length), THR_STATUS_OK);
                CHECK_EQ(thr_tl_validate(out, length, &info).error, THR_TL_OK);
            }
        }
        if (cut > 200000u) {
            CHECK(0);
            break;
        }
    }
    (void)bytes_before;
    printf("flash power cuts: %u cut points tried over %d operations, every one left the old or the new state\n",
           (unsigned)cuts, OPS);
    CHECK(cuts > 1000u);
}

void flash_tests(void)
{
    run_test("slot store read erase", store_read_erase);
    run_test("slot play and boot", play_and_boot);
    run_test("flash power cuts", power_cuts);
}
