/* QEMU benchmark (make qemu-bench): instructions per tick with 16 events sounding at once, the
 * timeline of the host benchmark (bench/bench_timeline.c), steady and all ramping, and with 1 event.
 * Each of TICKS ticks is measured with TIM2 (one count per instruction with -icount shift=0),
 * interrupts masked so that only the tick counts; the actuator is a no-op, as in the host benchmark.
 * Prints `METRIC qemu_tick_instructions_16_events max=... mean=...`, `..._16_events_ramping`,
 * `..._1_event`, `..._per_event` and `..._fixed` (`qemu_m0plus_...` in the Cortex-M0+ image) on
 * USART1 and ends QEMU through semihosting: status 0 within the budgets, 1 over one, 2 when the
 * timeline did not play. */
#include "bench_board.h"
#include "bench_timeline.h"
#include "port.h"

#define EVENTS 16u
#define TICKS  1000u
/* The targets (16 events steady, 16 all in their attack or decay): the Cortex-M4 port build, and the
 * Cortex-M0+ image built with the core's size-budget flags (MCU=m0plus), which the same QEMU board
 * runs (ARMv6-M code is ARMv7-M code). */
#if defined(__ARM_ARCH_6M__)
#define BENCH_NAME           "qemu_m0plus_tick_instructions"
#define BUDGET               2500u
#define BENCH_TARGET         "2500 (goal <= 1500)"
#define RAMPING_BUDGET       3500u
#define BENCH_RAMPING_TARGET "3500"
#else
#define BENCH_NAME           "qemu_tick_instructions"
#define BUDGET               1500u
#define BENCH_TARGET         "1500 (goal <= 1000)"
#define RAMPING_BUDGET       2000u
#define BENCH_RAMPING_TARGET "2000"
#endif

static thr_core bench_core;
static uint8_t bench_memory[8192];
static uint8_t bench_bytes[512];

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

typedef struct bench_figures {
    uint32_t max, mean;
} bench_figures;

/* TICKS ticks of `events` events of one of the timelines, after the 100 that start them all. */
static bench_figures measure(uint32_t (*timeline)(uint8_t *, uint32_t), uint32_t events, uint32_t empty)
{
    uint32_t i, total = 0;
    bench_figures figures = { 0, 0 };
    if (bench_board_start(&bench_core, bench_memory, sizeof bench_memory, bench_bytes, timeline, events,
                          measured_tick) != 0)
        semihosting_exit(2);
    for (i = 0; i < TICKS; i++) {
        uint32_t instructions = measured_tick() - empty;
        total += instructions;
        if (instructions > figures.max) figures.max = instructions;
    }
    figures.mean = (total + TICKS / 2u) / TICKS;
    return figures;
}

static void metric(const char *name, bench_figures f, const char *target)
{
    trace_text("METRIC ");
    trace_text(name);
    trace_text(" max=");
    trace_decimal(f.max);
    trace_text(" mean=");
    trace_decimal(f.mean);
    trace_text(target);
    trace_end_line();
}

void bench_run(void);
void bench_run(void)
{
    uint32_t empty, per_event;
    bench_figures one, steady, ramping, split;
    /* what two TIM2 reads cost on their own, taken off every figure */
    __asm__ volatile("cpsid i" ::: "memory");
    empty = tick_meter_now();
    empty = tick_meter_now() - empty;
    __asm__ volatile("cpsie i" ::: "memory");
    one = measure(bench_timeline, 1, empty);
    steady = measure(bench_timeline, EVENTS, empty);
    ramping = measure(bench_timeline_ramping, EVENTS, empty);
    metric(BENCH_NAME "_16_events", steady, " target <= " BENCH_TARGET);
    metric(BENCH_NAME "_16_events_ramping", ramping, " target <= " BENCH_RAMPING_TARGET);
    metric(BENCH_NAME "_1_event", one, "");
    /* the split: what each sounding event adds, and what a tick costs besides (the 1-event tick less its event) */
    per_event = (steady.mean - one.mean + (EVENTS - 1u) / 2u) / (EVENTS - 1u);
    split.max = split.mean = per_event;
    metric(BENCH_NAME "_per_event", split, "");
    split.max = split.mean = one.mean - per_event;
    metric(BENCH_NAME "_fixed", split, "");
    semihosting_exit(steady.max <= BUDGET && ramping.max <= RAMPING_BUDGET ? 0u : 1u);
}
