/* What the tests do with the stub board (board/stub_board.h): start it, run it, build timelines,
 * read back what it traced. */
#ifndef THR_TEST_BOARD_H
#define THR_TEST_BOARD_H

#include <stdint.h>

#include "stub_board.h"
#include "thr_bytes.h"

/* stub_board_init with its default configuration, then stub_board_start. */
void board_setup(stub_board *board);
/* Advances the clock tick by tick, polling after each, for `ms` milliseconds. */
void board_run_ms(stub_board *board, uint32_t ms);
/* Prepends magic, version, flags and the CRC to a timeline body (bytes from offset 8 on). */
uint32_t make_timeline(uint8_t *out, uint8_t flags, const uint8_t *body, uint32_t body_length);
/* Intensity (Q15) traced at board time `ms` on channel 0, or -1 when not traced. */
int trace_intensity_at(const stub_board *board, uint32_t ms);
int trace_sharpness_at(const stub_board *board, uint32_t ms);
#if THR_AUDIO_SAMPLES
/* The audio sample for board time `us` (a multiple of the sample period); 0 where nothing was
 * written (silent ticks are not written), -99999 when the board plays no samples. */
long audio_sample_at(const stub_board *board, uint32_t us);
#endif

#endif
