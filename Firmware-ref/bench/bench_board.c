/* The QEMU benchmarks' board (bench_board.h). */
#include "bench_board.h"

static uint32_t still_clock(void *ctx)
{
    (void)ctx;
    return 0;
}

static void no_actuator(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)channel;
    (void)drive_q14;
    (void)frequency_dhz;
}

static const thr_hal bench_hal = { .now_us = still_clock, .actuator_write = no_actuator };
static const thr_board_config bench_config = {
    .board = "bench",
    .tick_hz = 1000,
    .channel_count = 1,
    .channels = { { .kind = THR_ACTUATOR_KIND_LRA, .resonant_dhz = 1700, .rated_mv = 2000, .max_mv = 3000 } },
};

int bench_board_start(thr_core *core, uint8_t *memory, uint32_t memory_size, uint8_t *bytes,
                      uint32_t (*timeline)(uint8_t *, uint32_t), uint32_t events, uint32_t (*tick)(void))
{
    uint32_t size = timeline(bytes, events), i;
    uint8_t handle;
    if (thr_core_init(core, &bench_hal, &bench_config, memory, memory_size) != THR_STATUS_OK ||
        thr_store_load(core, bytes, size, &handle) != THR_STATUS_OK ||
        thr_player_start(core, 0, handle, 0, 0) != THR_STATUS_OK)
        return 1;
    for (i = 0; i < 100u; i++) (void)tick();
    return core->active_count == events ? 0 : 1;
}
