/* The stub board: the HAL (thr_hal.h) over plain memory, with a clock the caller moves. One board
 * for the tests, the fuzzers and the size build (tools/size_main.c): in-RAM NOR flash that can lose
 * power after a given number of bytes, and what the core wrote to the line, the actuators, the
 * trace hook and the audio output, kept for the caller to read. Array sizes are macros so that a
 * build can shrink them with -D (the fuzzers use a small flash and timeline memory). */
#ifndef STUB_BOARD_H
#define STUB_BOARD_H

#include <stdint.h>

#include "thr_core.h"

#ifndef STUB_FLASH_SIZE
#define STUB_FLASH_SIZE (64u * 1024u)
#endif
#ifndef STUB_MEMORY_SIZE
#define STUB_MEMORY_SIZE 16384u /* timeline memory */
#endif
#ifndef STUB_TRACE_MAX
#define STUB_TRACE_MAX 8192u /* trace samples kept */
#endif
#ifndef STUB_TX_MAX
#define STUB_TX_MAX 16384u /* line bytes kept */
#endif
#ifndef STUB_AUDIO_MAX
#define STUB_AUDIO_MAX 8192u /* audio samples kept */
#endif
#define STUB_SECTOR_SIZE 1024u

/* The core first: at the start of the struct its address is the struct's, which a Cortex-M0+
 * reaches with one literal (the size build has one board, like a real port). */
typedef struct stub_board {
    thr_core core;
    thr_hal hal;
    thr_board_config config;
    uint32_t clock_us;
    /* power cut: once armed, after `bytes_until_cut` more flash bytes are written or erased,
     * every flash call fails (dead) */
    uint8_t cut_armed;
    uint8_t dead;
    uint32_t bytes_until_cut;
    uint32_t flash_bytes_written;
    uint32_t trace_count;
    uint32_t tx_count;
    int16_t last_drive[THR_MAX_CHANNELS];
#if THR_AUDIO_SAMPLES
    uint32_t audio_count;
    uint32_t audio_first_us;       /* board time of audio[0] */
    int16_t audio[STUB_AUDIO_MAX]; /* audio samples by time from the first written (0 = silent) */
#endif
    thr_trace_sample trace[STUB_TRACE_MAX];
    uint8_t tx[STUB_TX_MAX];
    uint8_t flash[STUB_FLASH_SIZE];
    uint8_t memory[STUB_MEMORY_SIZE];
} stub_board;

/* Erases the flash, points the HAL at this board and configures a 1 kHz board with one LRA
 * channel (170 Hz, 2 V rated, 3 V max), 4 flash slots of 2 KB, keep-alive 500 ms, fade 50 ms.
 * The core is not started: change the configuration if needed, then stub_board_start. */
void stub_board_init(stub_board *board);
/* (Re)starts the core over the same flash (a reboot): the power is back. */
thr_status stub_board_start(stub_board *board);

#endif
