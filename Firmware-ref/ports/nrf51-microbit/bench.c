/* QEMU benchmark (make qemu-bench): instructions per 1 ms tick of the budget build on this Cortex-M0
 * image, with 16 events sounding at once (the host benchmark's timeline, bench/bench_timeline.c),
 * steady and all ramping, and with 1 event. Under `-icount shift=0` QEMU runs one instruction per
 * nanosecond of virtual time, and TIMER1 counts at 16 MHz of it: one count is 62.5 instructions, the
 * resolution of each tick's figure (the means of 1,000 ticks are finer). TIMER1 counts 16 bits,
 * 4 ms at 16 MHz: a tick is far shorter. Interrupts are masked while a tick runs; the actuator is a
 * no-op, as in the host benchmark. Prints `METRIC qemu_microbit_tick_instructions_<case> max=M
 * mean=N` lines through semihosting and ends QEMU: status 0 when the 16-event tick is within its
 * target, 1 over it, 2 when the timeline did not play. The ramping case has no target of its own. The bench uses the board's core (the board never starts). */
#include "bench_board.h"
#include "bench_timeline.h"
#include "port.h"

#define EVENTS       16u
#define TICKS        1000u
#define TARGET       4000u /* a quarter of a 16 MHz millisecond (goal 1,600) */
#define TARGET_TEXT  " target <= 4000 (goal <= 1600)"
#define METER        TIMER1_BASE
#define CC_METER     0u
#define BENCH_MEMORY 1024u

static uint8_t bench_memory[BENCH_MEMORY];
static uint8_t bench_bytes[512];
static uint32_t empty; /* what reading the meter twice costs on its own */

static uint32_t meter_now(void)
{
    TIMER_TASKS_CAPTURE(METER, CC_METER) = TASK_TRIGGER;
    return TIMER_CC(METER, CC_METER);
}

/* One tick's counts of TIMER1, less `empty`. */
static uint32_t measured_tick(void)
{
    uint32_t start, counts;
    __asm__ volatile("cpsid i" ::: "memory");
    start = meter_now();
    thr_core_tick(&board_core);
    counts = (meter_now() - start) & 0xFFFFu;
    __asm__ volatile("cpsie i" ::: "memory");
    return counts > empty ? counts - empty : 0u;
}

typedef struct bench_figures {
    uint32_t max, mean; /* instructions */
} bench_figures;

/* TICKS ticks of `events` events of a timeline, after the 100 that start them all. */
static bench_figures measure(uint32_t (*timeline)(uint8_t *, uint32_t), uint32_t events)
{
    uint32_t i, total = 0, worst = 0;
    bench_figures figures;
    if (bench_board_start(&board_core, bench_memory, sizeof bench_memory, bench_bytes, timeline, events,
                          measured_tick) != 0)
        semihosting_exit(2);
    for (i = 0; i < TICKS; i++) {
        uint32_t counts = measured_tick();
        total += counts;
        if (counts > worst) worst = counts;
    }
    /* a count is 1,000 / 16 = 62.5 instructions */
    figures.max = worst * 125u / 2u;
    figures.mean = (total * 125u / 2u + TICKS / 2u) / TICKS;
    return figures;
}

static void metric(const char *name, uint32_t max, uint32_t mean, const char *target)
{
    trace_text("METRIC qemu_microbit_tick_instructions_");
    trace_text(name);
    trace_text(" max=");
    trace_decimal(max);
    trace_text(" mean=");
    trace_decimal(mean);
    trace_text(target);
    trace_end_line();
}

void bench_run(void);
void bench_run(void)
{
    uint32_t per_event;
    bench_figures one, steady, ramping;
    TIMER_MODE(METER) = TIMER_MODE_TIMER;
    TIMER_BITMODE(METER) = TIMER_BITMODE_16BIT;
    TIMER_PRESCALER(METER) = TIMER_PRESCALER_16MHZ;
    TIMER_TASKS_START(METER) = TASK_TRIGGER;
    __asm__ volatile("cpsid i" ::: "memory");
    empty = meter_now();
    empty = (meter_now() - empty) & 0xFFFFu;
    __asm__ volatile("cpsie i" ::: "memory");
    one = measure(bench_timeline, 1);
    steady = measure(bench_timeline, EVENTS);
    ramping = measure(bench_timeline_ramping, EVENTS);
    metric("16_events", steady.max, steady.mean, TARGET_TEXT);
    metric("16_events_ramping", ramping.max, ramping.mean, "");
    metric("1_event", one.max, one.mean, "");
    /* what each sounding event adds, and what a tick costs besides */
    per_event = steady.mean > one.mean ? (steady.mean - one.mean + (EVENTS - 1u) / 2u) / (EVENTS - 1u) : 0u;
    metric("per_event", per_event, per_event, "");
    metric("fixed", one.mean - per_event, one.mean - per_event, "");
    semihosting_exit(steady.max <= TARGET ? 0u : 1u);
}
