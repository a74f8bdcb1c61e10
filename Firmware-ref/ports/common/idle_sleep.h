/* The main loop's sleep, shared by the Cortex-M ports: wfi while the core has nothing to do until
 * the next tick. Interrupts are masked between the check and the wfi, so one that comes in between
 * still ends the sleep (wfi wakes on a pending interrupt even while PRIMASK holds it back). */
#ifndef THRUM_PORTS_IDLE_SLEEP_H
#define THRUM_PORTS_IDLE_SLEEP_H

#include "thr_core.h"

static inline void sleep_until_interrupt(thr_core *core)
{
    __asm__ volatile("cpsid i" ::: "memory");
    if (thr_core_idle_us(core) > 0u) __asm__ volatile("dsb\n wfi" ::: "memory");
    __asm__ volatile("cpsie i" ::: "memory");
}

#endif
