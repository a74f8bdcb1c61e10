/* Board time and the 1 ms wake-up, both from TIMER0 (the RTCs are not modelled by QEMU; TIMER0 is
 * the one 32-bit timer: the PS says which, RM §18.1 defers to it). TIMER0 counts at 1 MHz from the
 * HFCLK: the wire's board time itself (microseconds, wrapping at 2^32), kept by the hardware, so an
 * interrupt that comes late or not at all (interrupts masked, a flash erase halting the CPU) loses
 * no time. Compare 0 fires on board time's millisecond boundaries, where the core renders its
 * ticks, and only wakes the main loop from wfi. Capture channels: 1 for the main loop, 2 for the
 * interrupt, so neither overwrites the other's reading. */
#include "port.h"

#define TICK_US      1000u
#define CC_TICK      0u
#define CC_NOW       1u
#define CC_INTERRUPT 2u

static uint32_t capture(uint32_t channel)
{
    TIMER_TASKS_CAPTURE(TIMER0_BASE, channel) = TASK_TRIGGER;
    return TIMER_CC(TIMER0_BASE, channel);
}

void tick_init(void)
{
    TIMER_MODE(TIMER0_BASE) = TIMER_MODE_TIMER;
    TIMER_BITMODE(TIMER0_BASE) = TIMER_BITMODE_32BIT;
    TIMER_PRESCALER(TIMER0_BASE) = TIMER_PRESCALER_1MHZ;
    TIMER_TASKS_CLEAR(TIMER0_BASE) = TASK_TRIGGER;
    TIMER_CC(TIMER0_BASE, CC_TICK) = TICK_US;
    TIMER_INTENSET(TIMER0_BASE) = TIMER_INTEN_COMPARE(CC_TICK);
    NVIC_ISER = 1u << TIMER0_IRQn;
    TIMER_TASKS_START(TIMER0_BASE) = TASK_TRIGGER;
}

uint32_t tick_now_us(void)
{
    return capture(CC_NOW);
}

/* The next millisecond boundary ahead of now: a compare behind the count would fire only after the
 * count wraps (71 minutes), so a late interrupt skips the boundaries it missed. The count is read
 * again once the compare is written: if it reached the compare first (the CPU was held between the
 * capture and the write: by a higher-priority interrupt on the chip, by the host descheduling QEMU's
 * CPU, which runs on the host's clock), the compare goes to the boundary after, so the wake-up is
 * never lost. Under QEMU it once was: the board then ticked only when a received byte woke it. */
void TIMER0_IRQHandler(void);
void TIMER0_IRQHandler(void)
{
    uint32_t next = TIMER_CC(TIMER0_BASE, CC_TICK), now;
    TIMER_EVENTS_COMPARE(TIMER0_BASE, CC_TICK) = 0;
    now = capture(CC_INTERRUPT);
    do {
        do next += TICK_US;
        while ((int32_t)(next - now) <= 1);
        TIMER_CC(TIMER0_BASE, CC_TICK) = next;
        now = capture(CC_INTERRUPT); /* after the write: the capture task follows it on the bus */
    } while ((int32_t)(next - now) <= 0);
    /* an event clears when 0 is written (RM §10.1.4); the read makes that write land before the
     * return, so the interrupt does not fire again for the same event */
    (void)TIMER_EVENTS_COMPARE(TIMER0_BASE, CC_TICK);
}
