/* QEMU benchmark (make qemu-bench): instructions per tick with 16 events sounding at once, the
 * timeline of the host benchmark (bench/bench_timeline.c). Each of TICKS ticks is measured with
 * TIM2 (one count per instruction with -icount shift=0), interrupts masked so that only the tick
 * counts; the actuator is a no-op, as in the host benchmark. Prints
 * `METRIC qemu_tick_instructions_16_events max=... mean=...` on USART1 and ends QEMU through
 * semihosting: status 0 within the budget, 1 over it, 2 when the timeline did not play. */
#include "bench_timeline.h"
#include "port.h"

#define EVENTS 16u
#define TICKS  1000u
#define BUDGET 2500u /* the target for 16 events */

static thr_core bench_core;
static uint8_t bench_memory[8192];
static uint8_t bench_bytes[512];

static uint32_t bench_clock(void *ctx)
{
    (void)ctx;
    return 0;
}

static void bench_actuator(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)channel;
    (void)drive_q14;
    (void)frequency_dhz;
}

static const thr_hal bench_hal = { .now_us = bench_clock, .actuator_write = bench_actuator };
static const thr_board_config bench_config = {
    .board = "bench",
    .tick_hz = 1000,
    .channel_count = 1,
    .channels = { { .kind = THR_ACTUATOR_KIND_LRA, .resonant_dhz = 1700, .rated_mv = 2000, .max_mv = 3000 } },
};

static uint32_t measured_tick(void)
{
    uint32_t start, instructions;
    __asm__ volatile("cpsid i" ::: "memory");
    start = tick_meter_now();
    thr_core_tick(&bench_core);
    instructions = tick_meter_now() - start;
    __asm__ volatile("cpsie i" ::: "memory");
    return instructions;
}

void bench_run(void);
void bench_run(void)
{
    uint32_t size = bench_timeline(bench_bytes, EVENTS), i, max = 0, total = 0, empty;
    uint8_t handle;
    /* what two TIM2 reads cost on their own, taken off every figure */
    __asm__ volatile("cpsid i" ::: "memory");
    empty = tick_meter_now();
    empty = tick_meter_now() - empty;
    __asm__ volatile("cpsie i" ::: "memory");
    if (thr_core_init(&bench_core, &bench_hal, &bench_config, bench_memory, sizeof bench_memory) != THR_STATUS_OK ||
        thr_store_load(&bench_core, bench_bytes, size, &handle) != THR_STATUS_OK ||
        thr_player_start(&bench_core, 0, handle, 0, 0) != THR_STATUS_OK)
        semihosting_exit(2);
    for (i = 0; i < 100u; i++) (void)measured_tick(); /* every event has started */
    if (bench_core.active_count != EVENTS) semihosting_exit(2);
    for (i = 0; i < TICKS; i++) {
        uint32_t instructions = measured_tick() - empty;
        total += instructions;
        if (instructions > max) max = instructions;
    }
    trace_text("METRIC qemu_tick_instructions_16_events max=");
    trace_decimal(max);
    trace_text(" mean=");
    trace_decimal((total + TICKS / 2u) / TICKS);
    trace_text(" target <= 2500 (goal <= 2000)");
    trace_end_line();
    semihosting_exit(max <= BUDGET ? 0u : 1u);
}
