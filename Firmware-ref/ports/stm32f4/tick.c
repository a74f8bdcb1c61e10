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

/* Reads the count and the down-counter again while the counter wrapped between them or its
 * interrupt is still pending (the count would be a millisecond short). Called from the main loop
 * with interrupts on: the core's critical section masks only the UART interrupt. */
uint32_t tick_now_us(void)
{
    uint32_t ms, counter;
    do {
        ms = milliseconds;
        counter = SYST_CVR;
    } while (ms != milliseconds || (SCB_ICSR & SCB_ICSR_PENDSTSET));
    return ms * 1000u + (RELOAD - 1u - counter) / CLOCKS_PER_US;
}
