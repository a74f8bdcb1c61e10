/* Flash slots: store, list, read back, erase, play, boot binding; power cuts at every byte. */
#include <string.h>

#include "flash_sweep.h"
#include "test_board.h"
#include "test.h"
#include "thr_flash.h"

static stub_board board;
static flash_timelines tl;

static void store_read_erase(void)
{
    uint8_t out[1200];
    uint32_t length = sizeof out;
    thr_tl_info info;
    flash_timelines_make(&tl);
    CHECK_EQ(thr_tl_validate(tl.b, tl.len_b, &info).error, THR_TL_OK);
    board_setup(&board);
    CHECK_EQ(board.core.flash.ready, 1);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl.a, tl.len_a, 0), THR_STATUS_OK);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl.b, tl.len_b, 1), THR_STATUS_OK);
    CHECK_EQ(thr_slot_read(&board.core, 1, 0, out, &length), THR_STATUS_OK);
    CHECK_EQ(length, tl.len_b);
    CHECK(memcmp(out, tl.b, tl.len_b) == 0);
    length = 10;
    CHECK_EQ(thr_slot_read(&board.core, 0, tl.len_a - 4u, out, &length), THR_STATUS_OK);
    CHECK_EQ(length, 4); /* cut at the end of the content */
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl.a, tl.len_a - 1u, 2), THR_STATUS_BAD_TIMELINE);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl.a, tl.len_a, 9), THR_STATUS_NO_SUCH_SLOT);
    /* survives a reboot */
    stub_board_start(&board);
    CHECK_EQ(board.core.flash.slot[0].used, 1);
    CHECK_EQ(board.core.flash.slot[1].used, 1);
    CHECK_EQ(board.core.flash.slot[1].size, tl.len_b);
    CHECK_EQ(board.core.flash.slot[1].hash, thr_crc32c_update(0, tl.b, tl.len_b)); /* the upload hash */
    CHECK_EQ(board.core.flash.slot[2].used, 0);
    CHECK_EQ(thr_slot_erase(&board.core, 1), THR_STATUS_OK);
    stub_board_start(&board);
    CHECK_EQ(board.core.flash.slot[1].used, 0);
    length = 4;
    CHECK_EQ(thr_slot_read(&board.core, 1, 0, out, &length), THR_STATUS_NO_SUCH_SLOT);
}

static void play_and_boot(void)
{
    flash_timelines_make(&tl);
    board_setup(&board);
    CHECK_EQ(thr_slot_store_bytes(&board.core, tl.a, tl.len_a, 3), THR_STATUS_OK);
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

/* The stub board's flash: a power cut after a number of bytes written or erased. */
static void sweep_setup(void)
{
    board_setup(&board);
}
static void sweep_arm(uint32_t cut)
{
    board.cut_armed = 1;
    board.bytes_until_cut = cut;
}
static int sweep_dead(void)
{
    return board.dead;
}
static void sweep_restart(void)
{
    stub_board_start(&board);
}

static void power_cuts(void)
{
    static const flash_op ops[FLASH_SWEEP_OPS] = {
        { FLASH_STORE_A, 0 }, { FLASH_STORE_B, 0 }, /* replace A by B */
        { FLASH_BIND, 0 },    { FLASH_STORE_A, 1 }, { FLASH_ERASE, 0 }, { FLASH_BIND, 1 },
    };
    static const flash_sweep sweep = {
        "power cut at budget byte", 200000u, sweep_setup, sweep_arm, sweep_dead, sweep_restart, 0
    };
    uint32_t cuts;
    flash_timelines_make(&tl);
    cuts = flash_sweep_run(&sweep, &board.core, 4, ops, &tl);
    printf("flash power cuts: %u cut points tried over %d operations, every one left the old or the new state\n",
           (unsigned)cuts, FLASH_SWEEP_OPS);
    CHECK(cuts > 1000u);
}

void flash_tests(void)
{
    run_test("slot store read erase", store_read_erase);
    run_test("slot play and boot", play_and_boot);
    run_test("flash power cuts", power_cuts);
}
