/* Instructions per tick: N continuous events sound at once (with an authored intensity curve),
 * the board renders TICKS ticks. Run under callgrind with --toggle-collect=thr_core_tick; the
 * Makefile divides the instructions by TICKS. Usage: bench_tick N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thr_bytes.h"
#include "thr_core.h"

#define TICKS 1000u

static uint32_t clock_us;
static uint32_t now_us(void *ctx)
{
    (void)ctx;
    return clock_us;
}
static void actuator_write(void *ctx, uint8_t channel, int16_t drive, uint16_t frequency)
{
    (void)ctx;
    (void)channel;
    (void)drive;
    (void)frequency;
}

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

int main(int argc, char **argv)
{
    static thr_core core;
    static uint8_t memory[8192];
    static uint8_t tl[4096];
    thr_hal hal;
    thr_board_config config;
    uint32_t events = argc > 1 ? (uint32_t)atoi(argv[1]) : 16u, n = 8, i, crc;
    uint8_t handle;
    memset(&hal, 0, sizeof hal);
    memset(&config, 0, sizeof config);
    hal.now_us = now_us;
    hal.actuator_write = actuator_write;
    config.tick_hz = 1000;
    config.channel_count = 1;
    config.channels[0].kind = THR_ACTUATOR_KIND_LRA;
    config.channels[0].resonant_dhz = 1700;
    config.channels[0].rated_mv = 2000;
    config.channels[0].max_mv = 3000;
    if (events > 64u) events = 64u;
    /* header: duration 5000 ms, 1 shape (stride 6: continuous, sustained, attack 0.3) */
    tl[0] = 0x54;
    tl[1] = 0x4C;
    tl[2] = 1;
    tl[3] = 0x04;
    n += put_varint(tl + n, 5000);
    tl[n++] = 1;
    tl[n++] = 0x0D;
    tl[n++] = 0x60;
    tl[n++] = 0x80;
    tl[n++] = 0x4C;
    tl[n++] = 0x00;
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

    if (thr_core_init(&core, &hal, &config, memory, sizeof memory) != THR_STATUS_OK) return 1;
    if (thr_store_load(&core, tl, n, &handle) != THR_STATUS_OK) {
        fprintf(stderr, "bad bench timeline\n");
        return 1;
    }
    thr_player_start(&core, 0, handle, 0, 0);
    for (i = 0; i < 100u; i++) thr_core_tick(&core); /* warm up: every event has started */
    if (core.active_count != events) {
        fprintf(stderr, "%u events active, expected %u\n", core.active_count, events);
        return 1;
    }
    for (i = 0; i < TICKS; i++) thr_core_tick(&core);
    printf("events %u ticks %u active %u\n", (unsigned)events, TICKS, (unsigned)core.active_count);
    return 0;
}
