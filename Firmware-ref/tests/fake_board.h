/* A simulated board for the tests: manual clock, in-memory flash with power cuts, a trace
 * recorder and a serial capture. */
#ifndef THR_FAKE_BOARD_H
#define THR_FAKE_BOARD_H

#include <stdint.h>

#include "thr_bytes.h"
#include "thr_core.h"

#define FAKE_FLASH_SIZE (64u * 1024u)
#define FAKE_TRACE_MAX 8192u
#define FAKE_TX_MAX 16384u
#define FAKE_AUDIO_MAX 8192u

typedef struct fake_board {
    uint32_t clock_us;
    uint8_t flash[FAKE_FLASH_SIZE];
    /* power cut: after `bytes_until_cut` more flash bytes are written (or erased), everything fails */
    int cut_armed;
    uint32_t bytes_until_cut;
    int dead;
    uint32_t flash_bytes_written;
    thr_trace_sample trace[FAKE_TRACE_MAX];
    uint32_t trace_count;
    uint8_t tx[FAKE_TX_MAX];
    uint32_t tx_count;
    int16_t last_drive[THR_MAX_CHANNELS];
#if THR_AUDIO_SAMPLES
    int16_t audio[FAKE_AUDIO_MAX];   /* audio samples by time from the first written (0 = silent) */
    uint32_t audio_count;
    uint32_t audio_first_us;         /* board time of audio[0] */
#endif
    thr_hal hal;
    thr_board_config config;
    uint8_t memory[16384];
    thr_core core;
} fake_board;

/* Sets up a 1 kHz, one-LRA-channel board with flash (4 slots of 2 KB) and initialises the core. */
void fake_board_init(fake_board *board);
/* Re-initialises the core over the same flash (a reboot). */
void fake_board_reboot(fake_board *board);
/* Advances the clock tick by tick, polling after each, for `ms` milliseconds. */
void fake_board_run_ms(fake_board *board, uint32_t ms);
/* Prepends magic, version, flags and the CRC to a timeline body (bytes from offset 8 on). */
uint32_t make_timeline(uint8_t *out, uint8_t flags, const uint8_t *body, uint32_t body_length);
/* Intensity (Q15) traced at board time `ms` on channel 0, or -1 when not traced. */
int trace_intensity_at(const fake_board *board, uint32_t ms);
int trace_sharpness_at(const fake_board *board, uint32_t ms);
#if THR_AUDIO_SAMPLES
/* The audio sample for board time `us` (a multiple of the sample period); 0 where nothing was
 * written (silent ticks are not written), -99999 when the board plays no samples. */
long audio_sample_at(const fake_board *board, uint32_t us);
#endif

#endif
