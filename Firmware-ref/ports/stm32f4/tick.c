/* Board time and the 1 kHz wake-up. Board time is TIM5, a free-running 32-bit counter at 1 MHz: the
 * wire's board time itself (microseconds, wrapping at 2^32), kept by the hardware, so an interrupt
 * that comes late or not at all (a flash erase, masked interrupts, a debugger) loses no time.
 * SysTick at 1 kHz only wakes the main loop from wfi and counts milliseconds for timeouts (tick_ms).
 * Both count the same clock (the core clock is the timer clock on the Nucleo: 84 MHz; QEMU's virtual
 * clock) and start together, so SysTick fires on board time's millisecond boundaries, where the core
 * renders its ticks. */
#include "port.h"

#define SYSTICK_RELOAD (CORE_CLOCK_HZ / 1000u)

static volatile uint32_t milliseconds;

/* In RAM (.ramfunc): it runs while a flash erase stalls every read of the flash (flash.c). */
void SysTick_Handler(void);
RAMFUNC void SysTick_Handler(void)
{
    milliseconds++;
#if THRUM_QEMU
    watchdog_on_tick();
#endif
}

void tick_init(void)
{
    /* TIM5 at 1 MHz: the prescaler divides the timer clock by PSC + 1 (RM0368 §13.4.11) and loads at
     * the update event that UG generates, which also clears the count */
    TIM_PSC(TIM5_BASE) = TIMER_CLOCK_HZ / 1000000u - 1u;
    TIM_ARR(TIM5_BASE) = 0xFFFFFFFFu;
    TIM_EGR(TIM5_BASE) = TIM_EGR_UG;
    SYST_RVR = SYSTICK_RELOAD - 1u;
    SYST_CVR = 0;
    TIM_CR1(TIM5_BASE) = TIM_CR1_CEN;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

uint32_t tick_ms(void)
{
    return milliseconds;
}

uint32_t tick_now_us(void)
{
    return TIM_CNT(TIM5_BASE);
}
