/* The 16 MHz crystal (the micro:bit's X1) as HFCLK, for TIMER0's board time and the UART's baud rate:
 * after reset the nRF51 runs from its RC oscillator, ±2 % over temperature (PS §8.3, HFINT), too far
 * for a serial line's and a board clock's tolerance. HFCLKSTART starts the crystal; HFCLKSTARTED
 * says it runs (RM §13.1.1; start-up 0.8-1.5 ms typical, PS §8.1). The wait is bounded: without the
 * crystal the board runs on the RC clock and `clock_crystal` is 0 (the board string says so). */
#include "port.h"

#define CLOCK_WAIT_LOOPS 40000u /* about 10 ms at 16 MHz: several loop instructions per pass */

uint8_t clock_crystal;

void clock_init(void)
{
    uint32_t loops;
    CLOCK_EVENTS_HFCLKSTARTED = 0;
    CLOCK_TASKS_HFCLKSTART = TASK_TRIGGER;
    for (loops = 0; loops < CLOCK_WAIT_LOOPS; loops++) {
        if (CLOCK_EVENTS_HFCLKSTARTED) {
            clock_crystal = 1;
            return;
        }
    }
    clock_crystal = 0;
}
