/* SysTick at 1 kHz from the core clock, and the board clock in microseconds: whole milliseconds
 * counted by the interrupt plus the part of the current one read from the down-counter. No 64-bit
 * arithmetic: the microsecond count wraps at 2^32 like the wire's board time. */
#include "port.h"

#define RELOAD        (CORE_CLOCK_HZ / 1000u)
#define CLOCKS_PER_US (CORE_CLOCK_HZ / 1000000u)

static volatile uint32_t milliseconds;

void SysTick_Handler(void);
void SysTick_Handler(void)
{
    milliseconds++;
#if THRUM_QEMU
    watchdog_on_tick();
#endif
}

void tick_init(void)
{
    SYST_RVR = RELOAD - 1u;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_TICKINT | SYST_CSR_ENABLE;
}

uint32_t tick_ms(void)
{
    return milliseconds;
}

#if THRUM_QEMU
/* QEMU: board time from TIM2, which QEMU counts at 1 GHz of its virtual clock (tick_meter_init
 * starts it before the core's first call). QEMU delivers SysTick's interrupts late and merges the
 * late ones when the host is busy, and a clock counted from them lost 70% of its time against the
 * host's on a loaded machine (2.6 s in 9.7 s); TIM2 follows QEMU's clock exactly. The main loop
 * calls this at least every millisecond, well inside TIM2's 4.29 s wrap. */
static uint32_t last_count, carry_ns, micros;

uint32_t tick_now_us(void)
{
    uint32_t count = TIM2_CNT;
    uint32_t elapsed = count - last_count + carry_ns;
    last_count = count;
    micros += elapsed / 1000u;
    carry_ns = elapsed % 1000u;
    return micros;
}
#else
/* The count and the down-counter, read again while the count changed under them or the wrap's
 * pending flag changed between the two looks at it. A wrap whose interrupt has not run yet (it is
 * about to, or interrupts are masked: the main loop calls the core with PRIMASK set between its
 * idle check and wfi) counts as the millisecond it is. Waiting for such an interrupt instead would
 * never end with PRIMASK set: the board froze there (found by the QEMU end-to-end tests). */
uint32_t tick_now_us(void)
{
    uint32_t ms, counter, pending_before, pending_after;
    do {
        ms = milliseconds;
        pending_before = SCB_ICSR & SCB_ICSR_PENDSTSET;
        counter = SYST_CVR;
        pending_after = SCB_ICSR & SCB_ICSR_PENDSTSET;
    } while (ms != milliseconds || pending_before != pending_after);
    if (pending_after) ms++;
    return ms * 1000u + (RELOAD - 1u - counter) / CLOCKS_PER_US;
}
#endif
