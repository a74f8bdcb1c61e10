/* The slot store on an STM32F4's flash (model_flash.h): unequal sectors, erase before write, a
 * program granularity, writes that would set bits failing; power cuts at every operation. */
#include <string.h>

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
static uint8_t tl_a[64], tl_b[700];
static uint32_t len_a, len_b;

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
 * 64, 128 | 128, 128 KB after the two 16 KB metadata banks would not fit a fourth slot). */
static void f4_setup(uint32_t program)
{
    unsigned i;
    stub_board_init(&f4.board);
    model_flash_f4(&f4.flash, program);
    for (i = 0; i < MODEL_FLASH_SECTORS; i++) f4_sectors[i] = f4.flash.sectors[i];
    f4.hal = f4.board.hal;
    f4.hal.flash_read = f4_read;
    f4.hal.flash_write = f4_write;
    f4.hal.flash_erase = f4_erase;
    f4.board.config.flash_size = f4.flash.size;
    f4.board.config.flash_sector_size = 0; /* not used with a map */
    f4.board.config.flash_sectors = f4_sectors;
    f4.board.config.flash_sector_count = MODEL_FLASH_SECTORS;
    f4.board.config.flash_program_size = (uint8_t)program;
    f4.board.config.slot_count = 3;
    f4.board.config.slot_size = 2048;
    f4_start();
}

static void make_timelines(void)
{
    static const uint8_t body_a[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    uint8_t body[700];
    uint32_t n = 0, i;
    len_a = make_timeline(tl_a, 0, body_a, sizeof body_a);
    body[n++] = 0xAB;
    body[n++] = 0x02;
    body[n++] = 0x01;
    body[n++] = 0x04;
    body[n++] = 0xFF;
    body[n++] = 0x10;
    for (i = 0; i < 300u; i++) {
        body[n++] = 0x00;
        body[n++] = i ? 0x01 : 0x00;
    }
    len_b = make_timeline(tl_b, 0, body, n); /* 616 bytes: not a whole number of 16-byte units */
}

static void f4_layout(void)
{
    static const uint32_t programs[] = { 1, 4, 16, 32 };
    unsigned k;
    make_timelines();
    for (k = 0; k < 4u; k++) {
        uint8_t out[700];
        uint32_t length = sizeof out;
        f4_setup(programs[k]);
        CHECK_EQ(f4.board.core.flash.ready, 1);
        /* banks on sector starts: 0, 16, 32, 48, 64, 128 (64 KB), 256, 384 KB; the end at 512 KB */
        CHECK_EQ(f4.board.core.flash.bank_at[4], 64u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[5], 128u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[6], 256u * 1024u);
        CHECK_EQ(f4.board.core.flash.bank_at[8], 512u * 1024u);
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl_b, len_b, 1), THR_STATUS_OK);
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl_a, len_a, 1), THR_STATUS_OK); /* the other bank */
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl_b, len_b, 1), THR_STATUS_OK); /* erased again first */
        CHECK_EQ(thr_slot_store_bytes(&f4.board.core, tl_a, len_a, 2), THR_STATUS_OK);
        CHECK_EQ(thr_slot_bind(&f4.board.core, 2, THR_SLOT_TRIGGER_BOOT, 0), THR_STATUS_OK);
        CHECK_EQ(thr_slot_bind(&f4.board.core, 1, THR_SLOT_TRIGGER_BOOT, 0), THR_STATUS_OK);
        CHECK_EQ(f4.flash.violations, 0); /* aligned whole units, never a bit set without an erase */
        f4_start();
        CHECK_EQ(f4.board.core.flash.boot_slot, 1);
        CHECK_EQ(thr_slot_read(&f4.board.core, 1, 0, out, &length), THR_STATUS_OK);
        CHECK_EQ(length, len_b);
        CHECK(memcmp(out, tl_b, len_b) == 0);
        CHECK_EQ(thr_slot_used(&f4.board.core, 2), 1);
        CHECK_EQ(thr_slot_used(&f4.board.core, 0), 0);
    }
    /* a region too small for the slots, or a program size that is no power of two: no store */
    f4_setup(4);
    f4.board.config.slot_count = 4;
    f4_start();
    CHECK_EQ(f4.board.core.flash.ready, 0);
    f4.board.config.slot_count = 3;
    f4.board.config.flash_program_size = 12;
    f4_start();
    CHECK_EQ(f4.board.core.flash.ready, 0);
}

typedef struct flash_state {
    uint8_t used[3];
    uint32_t size[3], hash[3];
    uint8_t boot;
} flash_state;

static void capture(flash_state *s)
{
    unsigned i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < 3u; i++) {
        s->used[i] = f4.board.core.flash.slot[i].used;
        s->size[i] = s->used[i] ? f4.board.core.flash.slot[i].size : 0u;
        s->hash[i] = s->used[i] ? f4.board.core.flash.slot[i].hash : 0u;
    }
    s->boot = f4.board.core.flash.boot_slot;
}

#define OPS 6
static thr_status run_op(int op)
{
    thr_core *core = &f4.board.core;
    switch (op) {
    case 0: return thr_slot_store_bytes(core, tl_a, len_a, 0);
    case 1: return thr_slot_store_bytes(core, tl_b, len_b, 0);
    case 2: return thr_slot_bind(core, 0, THR_SLOT_TRIGGER_BOOT, 0);
    case 3: return thr_slot_store_bytes(core, tl_b, len_b, 1);
    case 4: return thr_slot_erase(core, 0);
    default: return thr_slot_bind(core, 1, THR_SLOT_TRIGGER_BOOT, 0);
    }
}

/* A power cut at every operation (every unit programmed, every sector erased) of six slot-store
 * operations, with 16-byte units: after the reboot, the old or the new state, every slot valid. */
static void f4_power_cuts(void)
{
    flash_state states[OPS + 1], now;
    uint32_t cut, cuts = 0;
    int op;
    make_timelines();
    f4_setup(16);
    capture(&states[0]);
    for (op = 0; op < OPS; op++) {
        CHECK_EQ(run_op(op), THR_STATUS_OK);
        capture(&states[op + 1]);
    }
    for (cut = 0;; cut++) {
        int interrupted = -1;
        unsigned s;
        f4_setup(16);
        f4.flash.cut_armed = 1;
        f4.flash.ops_until_cut = cut;
        for (op = 0; op < OPS; op++) {
            if (run_op(op) != THR_STATUS_OK || f4.flash.dead) {
                interrupted = op;
                break;
            }
        }
        if (interrupted < 0) break;
        cuts++;
        f4_start();
        capture(&now);
        if (memcmp(&now, &states[interrupted], sizeof now) != 0 &&
            memcmp(&now, &states[interrupted + 1], sizeof now) != 0) {
            fprintf(stderr, "F4 power cut at operation %u in op %d left an unexpected state\n", (unsigned)cut,
                    interrupted);
            CHECK(0);
            break;
        }
        for (s = 0; s < 3u; s++) {
            uint8_t out[700];
            uint32_t length = sizeof out;
            thr_tl_info info;
            if (!f4.board.core.flash.slot[s].used) continue;
            CHECK_EQ(thr_slot_read(&f4.board.core, (uint8_t)s, 0, out, &length), THR_STATUS_OK);
            CHECK_EQ(thr_tl_validate(out, length, &info).error, THR_TL_OK);
        }
        CHECK_EQ(f4.flash.violations, 0);
        if (cut > 10000u) {
            CHECK(0);
            break;
        }
    }
    printf("F4 flash power cuts: %u cut points (every 16-byte unit and sector erase of %d operations), old or new "
           "state every time\n",
           (unsigned)cuts, OPS);
    CHECK(cuts > 90u);
}

void flash_f4_tests(void)
{
    run_test("flash F4 sectors and program size", f4_layout);
    run_test("flash F4 power cuts", f4_power_cuts);
}
