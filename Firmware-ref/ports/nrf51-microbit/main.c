/* Start-up and the main loop: poll the core (frames, then every due tick), the DRV2605L's upkeep,
 * take received bytes again if the ring had filled, kick the watchdog, and sleep (wfi) until the
 * next interrupt when nothing waits: TIMER0 wakes it every millisecond, on the tick boundaries the
 * core renders at, and a received byte wakes it at once. */
#include "idle_sleep.h"
#include "port.h"

#if THRUM_BENCH
void bench_run(void);
#endif

int main(void)
{
#if THRUM_QEMU
    stack_meter_paint();
#endif
    clock_init();
    tick_init();
#if THRUM_BENCH
    bench_run();
#endif
    twi_init();
    board_init();
    watchdog_start();
#if THRUM_QEMU
    trace_text("boot epoch "); /* a host reading the trace sees each (re)start */
    trace_decimal(board_core.config->boot_epoch);
    trace_end_line();
#endif
    for (;;) {
        thr_core_poll(&board_core);
        board_poll();
        uart0_resume();
        watchdog_kick();
        remember_epoch(board_core.link.epoch);
#if THRUM_QEMU
        stack_meter_poll(tick_now_us());
#endif
        sleep_until_interrupt(&board_core);
    }
}
