/* QEMU: a watchdog counted by SysTick, since QEMU does not model the IWDG. When the main loop has
 * not kicked it for TIMEOUT_MS, SysTick resets the system (SCB AIRCR SYSRESETREQ), as the IWDG
 * would. A test makes the main loop stall with a byte sequence on the link (usart2.c). */
#include "port.h"

#define TIMEOUT_MS 250u

static volatile uint32_t since_kick;
static volatile uint8_t running;
volatile uint8_t watchdog_stall_requested;

void watchdog_start(void)
{
    since_kick = 0;
    running = 1;
}

void watchdog_kick(void)
{
    since_kick = 0;
}

void watchdog_on_tick(void)
{
    if (running && ++since_kick >= TIMEOUT_MS) system_reset();
}

/* The main loop stops here, with interrupts on, until the watchdog resets the board. */
void watchdog_stall_main(void)
{
    for (;;) __asm__ volatile("wfi");
}
