/* The fuzzers' board: the stub board (board/stub_board.h, built with a 16 KB flash and 4 KB of
 * timeline memory, see the Makefile) with two channels, an LRA and an ERM, two slots, a trigger
 * input and short keep-alive and fade; no trace (it would only cost time). */
#ifndef THR_FUZZ_BOARD_H
#define THR_FUZZ_BOARD_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stub_board.h"
#include "thr_bytes.h"

static stub_board fuzz_board;
#define fuzz_core  (fuzz_board.core)
#define fuzz_clock (fuzz_board.clock_us)

/* The board as it is right after it started: after the first inputs, every input starts from a copy
 * of it (fuzz_board_restore) rather than from stub_board_init's byte loops and thr_core_init. The same
 * state: the start depends only on the configuration below and on the erased flash, and the board
 * and the core hold pointers only into fuzz_board itself, whose address does not change. The first
 * inputs start it for real, so that the start's code counts as covered (libFuzzer does not count
 * its first, empty run). */
#define FUZZ_REAL_STARTS 16
static stub_board fuzz_board_started;
static unsigned fuzz_board_starts;

/* The flash is most of the board, and few inputs write it: only the sectors an input wrote or erased
 * are copied back. The board's flash calls go through these two, which note the sectors. */
#define FUZZ_SECTORS (STUB_FLASH_SIZE / STUB_SECTOR_SIZE)
typedef char fuzz_sectors_fit_a_mask[FUZZ_SECTORS <= 32u ? 1 : -1];
typedef char
    fuzz_memory_follows_flash[offsetof(stub_board, memory) == offsetof(stub_board, flash) + STUB_FLASH_SIZE ? 1 : -1];
static uint32_t fuzz_dirty; /* bit n: sector n written or erased since the copy */
static uint32_t fuzz_restores;
static int (*fuzz_board_flash_write)(void *ctx, uint32_t address, const uint8_t *data, uint32_t length);
static int (*fuzz_board_flash_erase)(void *ctx, uint32_t address);

static void fuzz_mark(uint32_t address, uint32_t length)
{
    uint32_t s;
    if (address >= STUB_FLASH_SIZE || length == 0u) return; /* the board refuses it */
    if (length > STUB_FLASH_SIZE - address) length = STUB_FLASH_SIZE - address;
    for (s = address / STUB_SECTOR_SIZE; s <= (address + length - 1u) / STUB_SECTOR_SIZE; s++) fuzz_dirty |= 1u << s;
}

static int fuzz_flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    fuzz_mark(address, length);
    return fuzz_board_flash_write(ctx, address, data, length);
}

static int fuzz_flash_erase(void *ctx, uint32_t address)
{
    fuzz_mark(address, STUB_SECTOR_SIZE);
    return fuzz_board_flash_erase(ctx, address);
}

/* The started board back: everything before the flash, the sectors written since, the memory after.
 * Every 256th time the whole board is compared with the copy: nothing else may have changed. */
static void fuzz_board_restore(void)
{
    const size_t flash = offsetof(stub_board, flash), memory = offsetof(stub_board, memory);
    uint32_t s;
    memcpy(&fuzz_board, &fuzz_board_started, flash);
    for (s = 0; s < FUZZ_SECTORS; s++) {
        if (fuzz_dirty >> s & 1u)
            memcpy(fuzz_board.flash + s * STUB_SECTOR_SIZE, fuzz_board_started.flash + s * STUB_SECTOR_SIZE,
                   STUB_SECTOR_SIZE);
    }
    memcpy((uint8_t *)&fuzz_board + memory, (const uint8_t *)&fuzz_board_started + memory, sizeof fuzz_board - memory);
    fuzz_dirty = 0;
    if (fuzz_restores++ % 256u == 0u && memcmp(&fuzz_board, &fuzz_board_started, sizeof fuzz_board) != 0) abort();
}

/* `after_start` (may be null) runs on the started board before the copy is taken, so that what it does
 * (fuzz_link: the handshake) is in the copy too. */
static void fuzz_board_init(void (*after_start)(void))
{
    thr_board_config *c = &fuzz_board.config;
    if (fuzz_board_starts == FUZZ_REAL_STARTS) {
        fuzz_board_restore();
        return;
    }
    stub_board_init(&fuzz_board);
    fuzz_board.hal.trace = 0;
    fuzz_board_flash_write = fuzz_board.hal.flash_write;
    fuzz_board_flash_erase = fuzz_board.hal.flash_erase;
    fuzz_board.hal.flash_write = fuzz_flash_write;
    fuzz_board.hal.flash_erase = fuzz_flash_erase;
    c->firmware = c->board = c->serial = 0;
    c->channel_count = 2;
    c->channels[0].kind = THR_ACTUATOR_KIND_LRA;
    c->channels[0].rated_mv = 2000;
    c->channels[0].max_mv = 3000;
    c->channels[0].resonant_dhz = 1700;
    c->channels[1].kind = THR_ACTUATOR_KIND_ERM;
    c->channels[1].rated_mv = 3000;
    c->channels[1].max_mv = 3300;
    c->channels[1].name = "thumb"; /* CHANNEL_READ: a name and none */
    c->slot_count = 2;
    c->slot_size = 2048;
    c->keepalive_ms = 200;
    c->fade_ms = 20;
    c->trigger_inputs = 1;
    c->boot_epoch = 77;
    stub_board_start(&fuzz_board);
    if (after_start) after_start();
    if (++fuzz_board_starts == FUZZ_REAL_STARTS) {
        memcpy(&fuzz_board_started, &fuzz_board, sizeof fuzz_board);
        fuzz_dirty = 0;
    }
}

#endif
