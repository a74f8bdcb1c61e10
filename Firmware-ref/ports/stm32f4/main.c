/* Start-up and the main loop: poll the core (frames, then every due tick), kick the watchdog,
 * and sleep (wfi) until the next interrupt when nothing is waiting: SysTick wakes it every
 * millisecond, on the tick boundaries the core renders at, and a received byte wakes it at once. */
#include "board_actuator.h"
#include "idle_sleep.h"
#include "port.h"

#if THRUM_BENCH
void bench_run(void);
#endif

#if THRUM_QEMU
/* One poll, measured with TIM2 when it rendered exactly one tick and had no received byte to
 * handle: the tick's cost, plus the poll's own (reading the clock, an empty link check). */
static void poll_measured(void)
{
    uint32_t next_tick = board_core.next_tick;
    int quiet = board_core.link.ring_head == board_core.link.ring_tail;
    uint32_t start = tick_meter_now(), instructions;
    thr_core_poll(&board_core);
    instructions = tick_meter_now() - start;
    if (quiet && board_core.next_tick - next_tick == board_core.tick_us) tick_meter_record(instructions);
}
#endif

int main(void)
{
    clock_init();
    tick_init();
    slot_flash_init();
#if THRUM_QEMU
    trace_init();
    tick_meter_init();
#endif
    i2c_init();
#if THRUM_BENCH
    bench_run();
#endif
    board_init();
    watchdog_start();
#if THRUM_QEMU
    trace_text("boot epoch "); /* a host reading USART1 sees each (re)start */
    trace_decimal(board_core.config->boot_epoch);
    trace_end_line();
    trace_text(clock_source == CLOCK_HSE_BYPASS ? "clock hse" : "clock hsi-fallback");
    trace_end_line();
#endif
    for (;;) {
#if THRUM_QEMU
        if (watchdog_stall_requested) watchdog_stall_main();
        poll_measured();
#else
        thr_core_poll(&board_core);
#endif
        board_actuator_poll(&board_core);
        watchdog_kick();
        remember_epoch(board_core.link.epoch);
        sleep_until_interrupt(&board_core);
    }
}
