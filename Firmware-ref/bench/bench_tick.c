/* Instructions per tick: N continuous events sound at once (with an authored intensity curve),
 * the board renders TICKS ticks. Run under callgrind with --toggle-collect=thr_core_tick; the
 * Makefile divides the instructions by TICKS. Usage: bench_tick N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_timeline.h"
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

int main(int argc, char **argv)
{
    static thr_core core;
    static uint8_t memory[8192];
    static uint8_t tl[4096];
    thr_hal hal;
    thr_board_config config;
    uint32_t events = argc > 1 ? (uint32_t)atoi(argv[1]) : 16u, n, i;
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
    n = bench_timeline(tl, events);

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
