/* A board for the fuzzers: manual clock, small in-memory flash, no output. */
#ifndef THR_FUZZ_BOARD_H
#define THR_FUZZ_BOARD_H

#include <string.h>

#include "thr_bytes.h"
#include "thr_core.h"

#define FUZZ_FLASH 16384u

static uint32_t fuzz_clock;
static uint8_t fuzz_flash[FUZZ_FLASH];
static uint8_t fuzz_memory[4096];
static thr_core fuzz_core;
static thr_board_config fuzz_config;

static uint32_t fz_now(void *ctx) { (void)ctx; return fuzz_clock; }
static void fz_actuator(void *ctx, uint8_t c, int16_t d, uint16_t f) { (void)ctx; (void)c; (void)d; (void)f; }
static int fz_read(void *ctx, uint32_t a, uint8_t *o, uint32_t n)
{
    (void)ctx;
    if (a > FUZZ_FLASH || n > FUZZ_FLASH - a) return -1;
    memcpy(o, fuzz_flash + a, n);
    return 0;
}
static int fz_write(void *ctx, uint32_t a, const uint8_t *d, uint32_t n)
{
    uint32_t i;
    (void)ctx;
    if (a > FUZZ_FLASH || n > FUZZ_FLASH - a) return -1;
    for (i = 0; i < n; i++) fuzz_flash[a + i] &= d[i];
    return 0;
}
static int fz_erase(void *ctx, uint32_t a)
{
    (void)ctx;
    if (a % 1024u || a >= FUZZ_FLASH) return -1;
    memset(fuzz_flash + a, 0xFF, 1024);
    return 0;
}
static uint32_t fuzz_tx_bytes;
static void fz_serial(void *ctx, const uint8_t *d, uint32_t n) { (void)ctx; (void)d; fuzz_tx_bytes += n; }

static const thr_hal fuzz_hal = { 0, fz_now, fz_actuator, fz_read, fz_write, fz_erase, fz_serial, 0, 0, 0 };

static void fuzz_board_init(void)
{
    memset(fuzz_flash, 0xFF, sizeof fuzz_flash);
    memset(&fuzz_config, 0, sizeof fuzz_config);
    fuzz_clock = 0;
    fuzz_config.tick_hz = 1000;
    fuzz_config.channel_count = 2;
    fuzz_config.channels[0].rated_mv = 2000;
    fuzz_config.channels[0].max_mv = 3000;
    fuzz_config.channels[0].resonant_dhz = 1700;
    fuzz_config.channels[1].kind = THR_ACTUATOR_ERM;
    fuzz_config.channels[1].rated_mv = 3000;
    fuzz_config.channels[1].max_mv = 3300;
    fuzz_config.flash_size = FUZZ_FLASH;
    fuzz_config.flash_sector_size = 1024;
    fuzz_config.slot_count = 2;
    fuzz_config.slot_size = 2048;
    fuzz_config.keepalive_ms = 200;
    fuzz_config.fade_ms = 20;
    fuzz_config.trigger_inputs = 1;
    fuzz_config.boot_epoch = 77;
    thr_core_init(&fuzz_core, &fuzz_hal, &fuzz_config, fuzz_memory, sizeof fuzz_memory);
}

#endif
