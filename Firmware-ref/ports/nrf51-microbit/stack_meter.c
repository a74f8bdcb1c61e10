/* QEMU: how deep the stack has grown, so that the 2 KB the linker script keeps for it is a measured
 * figure. Before main, everything between the end of static RAM and the stack pointer is painted; once
 * a second the main loop finds the deepest word no longer painted and, when the depth grew, says
 * `stack max N` (bytes below the top of RAM) on the trace. */
#include "port.h"

#define PAINT        0x57AC57ACu
#define REPORT_US    1000000u
#define PAINT_MARGIN 64u /* bytes below the stack pointer left alone: the painting function's own frame */

extern uint32_t _sstack, _estack;
static uint32_t reported, last_report_us;

void stack_meter_paint(void)
{
    uint32_t here = 0, *word = &_sstack;
    uint32_t *limit = (uint32_t *)((uintptr_t)&here - PAINT_MARGIN);
    while (word < limit) *word++ = PAINT;
}

void stack_meter_poll(uint32_t now_us)
{
    const uint32_t *word = &_sstack;
    uint32_t depth;
    if (now_us - last_report_us < REPORT_US) return;
    last_report_us = now_us;
    while (word < &_estack && *word == PAINT) word++;
    depth = (uint32_t)((uintptr_t)&_estack - (uintptr_t)word);
    if (depth <= reported) return;
    reported = depth;
    trace_text("stack max ");
    trace_decimal(depth);
    trace_end_line();
}
