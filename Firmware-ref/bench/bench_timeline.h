/* The benchmark timeline: N continuous events sounding at once from N ms on, with an authored
 * intensity curve over the whole span. Shared by the host benchmark (bench_tick.c, callgrind) and
 * the QEMU benchmark (ports/stm32f4/bench.c, TIM2 instruction counts), so both measure the same work. */
#ifndef BENCH_TIMELINE_H
#define BENCH_TIMELINE_H

#include <stdint.h>

/* Writes the timeline into `out` (at least 64 + 8 x events bytes) and returns its size. */
uint32_t bench_timeline(uint8_t *out, uint32_t events);
/* The same, every event ramping instead: not sustained, a 1 s attack then a 1 s decay, so that
 * for the first second after its start every event is in its attack or decay. */
uint32_t bench_timeline_ramping(uint8_t *out, uint32_t events);

#endif
