/* The watchdog (RM §20): counts down from CRV on the 32.768 kHz LFCLK (which it starts itself) and
 * resets the chip at 0 unless RR[0] is written with the reload value. Once started it cannot be
 * stopped or reconfigured (CRV, RREN and CONFIG ignore writes while it runs; a system reset stops
 * it, but not a soft reset, SYSRESETREQ: RM §20.1.3, §12.1.15), so it is configured first and
 * started once. It keeps counting while the CPU sleeps in wfi (the main loop wakes every
 * millisecond) and pauses while a debugger halts the CPU. The timeout, 1 s, outlasts the longest
 * thing the main loop does between kicks: a slot bank's erase and write, every page of which is
 * kicked before (nvmc.c: 22.3 ms a page at most, PS §8.1). QEMU does not model the WDT: the same
 * writes land nowhere there. */
#include "port.h"

void watchdog_start(void)
{
    if (WDT_RUNSTATUS) return; /* still running from before a reset that left it on: nothing to change */
    WDT_CRV = WATCHDOG_TIMEOUT_MS * WDT_LFCLK_HZ / 1000u - 1u; /* timeout = (CRV + 1) / 32,768 s */
    WDT_RREN = WDT_RREN_RR0;
    WDT_CONFIG = WDT_CONFIG_SLEEP_RUN | WDT_CONFIG_HALT_PAUSE;
    WDT_TASKS_START = TASK_TRIGGER;
}

void watchdog_kick(void)
{
    WDT_RR0 = WDT_RR_RELOAD;
}
