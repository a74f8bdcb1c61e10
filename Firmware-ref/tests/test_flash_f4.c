/* The slot store on an STM32F4's flash (model_flash.h): unequal sectors, erase before write, a
 * program granularity, writes that would set bits failing; power cuts at every operation.
 * Built with THR_FLASH_SECTOR_MAP (the clang build) the model has the F4's sectors; without it (the
 * gcc build) the same NOR rules on eight equal 16 KB sectors. The program sizes up to
 * THR_FLASH_PROGRAM_MAX are stored with; a bigger one leaves the store off. */
#include <string.h>

#include "flash_sweep.h"
#include "model_flash.h"
#include "test.h"
#include "test_board.h"
#include "thr_flash.h"

/* The stub board first: hal.ctx is its address, which is this struct's. */
typedef struct f4_board {
    stub_board board;
    thr_hal hal;
    model_flash flash;
} f4_board;

static f4_board f4;
static uint32_t f4_sectors[MODEL_FLASH_SECTORS];
static flash_timelines tl;

static int f4_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    return model_flash_read(&((f4_board *)ctx)->flash, address, out, length);
}
static int f4_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    return model_flash_write(&((f4_board *)ctx)->flash, address, data, length);
}
static int f4_erase(void *ctx, uint32_t address)
{
    return model_flash_erase(&((f4_board *)ctx)->flash, address);
}

/* (Re)starts the core over the same flash: the power is back. */
static void f4_start(void)
{
    f4.flash.dead = 0;
    f4.flash.cut_armed = 0;
    thr_core_init(&f4.board.core, &f4.hal, &f4.board.config, f4.board.memory, sizeof f4.board.memory);
}

/* A board whose slot region is the whole F4 map: 3 slots of 2 KB (banks of 16, 16 | 16, 16 |
 * 64, 128 | 128, 128 KB after the two 16 KB metadata banks would not fit a fourth slot); without
 * the sector map, eight 16 KB sectors: banks of one sector each, again room for 3 slots. */
static void f4_setup(uint32_t program)
{
    unsigned i;
    stub_board_init(&f4.board);
#if THR_FLASH_SECTOR_MAP
    model_flash_f4(&f4.flash, program);
#else
    model_flash_equal(&f4.flash, 16u * 1024u, program);
#endif
    for (i = 0; i < MODEL_FLASH_SECTORS; i++) f4_sectors[i] = f4.flash.sectors[i];
    f4.hal = f4.board.hal;
    f4.hal.flash_read = f4_read;
    f4.hal.flash_write = f4_write;
    f4.hal.flash_erase = f4_erase;
    f4.board.config.flash_size = f4.flash.size;
#if THR_FLASH_SECTOR_MAP
    f4.board.config.flash_sector_size = 0; /* not used with a map */
    f4.board.config.flash_sectors = f4_sectors;
    f4.board.config.flash_sector_count = MODEL_FLASH_SECTORS;
#else
    f4.board.config.flash_sector_size = f4_sectors[0];
#endif
    f4.board.config.flash_program_size = (uint8_t)program;
    f4.board.config.slot_count = 3;
    f4.board.config.slot_size = 2048;
    f4_start();
}

static void f4_layout(void)
{
    static const uint32_t programs[] = { 1, 4, 16, 32 };
    unsigned k;
    flash_timelines_make(&tl);
    for (k = 0; k < 4u; k++) {
        uint8_t out[700];
        uint32_t length = sizeof out;
        f4_setup(programs[k]);
        if (programs[k] > THR_FLASH_PROGRAM_MAX) { /* a unit this build cannot pad to: no store */
            CHECK_EQ(f4.board.core.flash.ready, 0);
            continue;
        }
        CHECK_EQ(f4.board.core.flash.ready, 1);
#if THR_FLASH_SECTOR_MAP
        /* banks on sector starts: 0, 16, 32, 48, 64, 128 (64 KB), 256, 384 KB; the end at 512 KB */
        CHECK_EQ(f4.board.core.flash.bank_at[4], 64u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[5], 128u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[6], 256u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[8], 512u * 1024u);
#else
        CHECK_EQ(f4.board.core.flash.bank_size, 16u * 1024u); /* one sector a bank */
#endif
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl.b, tl.len_b, 1), THR_STATUS_OK);
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl.a, tl.len_a, 1), THR_STATUS_OK); /* the other bank */
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl.b, tl.len_b, 1), THR_STATUS_OK); /* erased again first */
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl.a, tl.len_a, 2), THR_STATUS_OK);
        CHECK_EQ(thr_slot_bind(&f4.board.core, 2, THR_SLOT_TRIGGER_BOOT, 0), THR_STATUS_OK);
        CHECK_EQ(thr_slot_bind(&f4.board.core, 1, THR_SLOT_TRIGGER_BOOT, 0), THR_STATUS_OK);
        CHECK_EQ(f4.flash.violations, 0); /* aligned whole units, never a bit set without an erase */
        f4_start();
        CHECK_EQ(f4.board.core.flash.boot_slot, 1);
        CHECK_EQ(thr_slot_read(&f4.board.core, 1, 0, out, &length), THR_STATUS_OK);
        CHECK_EQ(length, tl.len_b);
        CHECK(memcmp(out, tl.b, tl.len_b) == 0);
        CHECK_EQ(thr_slot_used(&f4.board.core, 2), 1);
        CHECK_EQ(thr_slot_used(&f4.board.core, 0), 0);
    }
    /* a region too small for the slots, or a program size that is no power of two: no store */
    f4_setup(1);
    f4.board.config.slot_count = 4;
    f4_start();
    CHECK_EQ(f4.board.core.flash.ready, 0);
    f4.board.config.slot_count = 3;
    f4.board.config.flash_program_size = 12;
    f4_start();
    CHECK_EQ(f4.board.core.flash.ready, 0);
    f4.board.config.flash_program_size = 64; /* above THR_FLASH_PROGRAM_MAX in every build */
    f4_start();
    CHECK_EQ(f4.board.core.flash.ready, 0);
}

/* The power cuts' program size: 16-byte units where the build pads to them, else bytes. */
#define CUT_PROGRAM (THR_FLASH_PROGRAM_MAX < 16u ? THR_FLASH_PROGRAM_MAX : 16u)

static void sweep_setup(void)
{
    f4_setup(CUT_PROGRAM);
}
static void sweep_arm(uint32_t cut)
{
    f4.flash.cut_armed = 1;
    f4.flash.ops_until_cut = cut;
}
static int sweep_dead(void)
{
    return f4.flash.dead;
}
static void no_violations(void)
{
    CHECK_EQ(f4.flash.violations, 0);
}

/* A power cut at every operation (every unit programmed, every sector erased) of six slot-store
 * operations, with 16-byte units (bytes in a build without them): after the reboot, the old or the new state, every slot valid. */
static void f4_power_cuts(void)
{
    static const flash_op ops[FLASH_SWEEP_OPS] = {
        { FLASH_STORE_A, 0 }, { FLASH_STORE_B, 0 }, { FLASH_BIND, 0 },
        { FLASH_STORE_B, 1 }, { FLASH_ERASE, 0 },   { FLASH_BIND, 1 },
    };
    static const flash_sweep sweep = {
        "F4 power cut at operation", 10000u, sweep_setup, sweep_arm, sweep_dead, f4_start, no_violations
    };
    uint32_t cuts;
    flash_timelines_make(&tl);
    cuts = flash_sweep_run(&sweep, &f4.board.core, 3, ops, &tl);
    printf("F4 flash power cuts: %u cut points (every %u-byte unit and sector erase of %d operations), old or "
           "new state every time\n",
           (unsigned)cuts, (unsigned)CUT_PROGRAM, FLASH_SWEEP_OPS);
    CHECK(cuts > 90u);
}

void flash_f4_tests(void)
{
    run_test("flash F4 sectors and program size", f4_layout);
    run_test("flash F4 power cuts", f4_power_cuts);
}
