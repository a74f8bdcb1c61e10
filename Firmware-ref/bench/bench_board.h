/* The QEMU benchmarks' board (each port's bench.c): a core with a no-op actuator and a clock that stands
 * still, one LRA channel, playing the benchmark timeline (bench_timeline.h) with every event started,
 * so that only the tick itself is measured. */
#ifndef BENCH_BOARD_H
#define BENCH_BOARD_H

#include <stdint.h>

#include "thr_core.h"

/* Builds `timeline`'s events-event timeline in `bytes` (bytes_size long), starts it on `core` (with
 * `memory` as its timeline memory) and renders the 100 ticks after which every event sounds, each
 * through `tick` (the port's measured tick; its result is dropped). 0 when it plays as it should, 1
 * when it did not start or not every event sounds. */
int bench_board_start(thr_core *core, uint8_t *memory, uint32_t memory_size, uint8_t *bytes,
                      uint32_t (*timeline)(uint8_t *, uint32_t), uint32_t events, uint32_t (*tick)(void));

#endif
