/* The hardware layer: the only seam between the Thrum core and a board.
 *
 * A board (real MCU, QEMU, or the Swift simulator) fills a const thr_hal with function pointers
 * and passes it to thr_core_init. Function pointers rather than link-time symbols: Swift can supply
 * them as @convention(c) closures, several simulated boards can live in one process, and tests
 * can swap one function without relinking. Every function receives the board's `ctx`.
 *
 * Threading: only thr_core_rx_byte may be called from interrupt context (it pushes into a ring
 * buffer inside a critical section). Everything else runs from the main loop (thr_core_poll). */
#ifndef THR_HAL_H
#define THR_HAL_H

#include <stdint.h>

#include "thr_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One rendered tick of one channel, handed to the trace hook (the simulator's oracle tap). */
typedef struct thr_trace_sample {
    uint32_t time_us; /* board time of the tick's start (the instant that was rendered) */
    uint8_t channel;
    uint8_t reserved[3];
    uint16_t intensity_q15; /* 0..32768 = 0..1, after mixing and clipping (SEMANTICS.md §2) */
    uint16_t sharpness_q15; /* 0..32768 */
    uint16_t audio_q15;     /* audio volume lane (§6) */
    int16_t drive_q14;      /* actuator drive handed to actuator_write, -16384..16384 of max_mv */
    uint16_t frequency_dhz; /* drive carrier in 0.1 Hz (LRA), 0 for ERM (DC) */
    uint16_t reserved2;
} thr_trace_sample;

typedef struct thr_hal {
    void *ctx;
    /* Free-running board clock in microseconds (wraps after 2^32 us; the core extends it). */
    uint32_t (*now_us)(void *ctx);
    /* Drive one actuator channel: signed level in Q14 of the channel's max_mv (negative = reverse
     * phase / braking), carrier frequency in 0.1 Hz (0 = DC for an ERM). */
    void (*actuator_write)(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz);
    /* Flash: byte addresses from 0 within the region given in thr_board_config. Return 0 on success.
     * Erase sets a whole sector (flash_sector_size bytes, aligned) to 0xFF. */
    int (*flash_read)(void *ctx, uint32_t address, uint8_t *out, uint32_t length);
    int (*flash_write)(void *ctx, uint32_t address, const uint8_t *data, uint32_t length);
    int (*flash_erase)(void *ctx, uint32_t sector_address);
    /* Serial transmit: queue `length` bytes for the line (may block until queued). */
    void (*serial_write)(void *ctx, const uint8_t *data, uint32_t length);
    /* Critical section around the receive ring buffer (mask the UART interrupt). May be NULL on
     * hosts where thr_core_rx_byte is called from the main loop. */
    uint32_t (*critical_enter)(void *ctx);
    void (*critical_exit)(void *ctx, uint32_t state);
    /* Optional (NULL = off): called once per channel per tick with what was rendered. */
    void (*trace)(void *ctx, const thr_trace_sample *sample);
#if THR_AUDIO_SAMPLES
    /* Optional (NULL = off): the audio output's samples for one tick (SEMANTICS.md §6.4),
     * audio_rate_hz / tick_hz of them, the first at board time `time_us`, Q15 signed. Called for
     * every tick in which a sound plays and the one after; ticks without a call are silent. */
    void (*audio_write)(void *ctx, uint32_t time_us, const int16_t *samples, uint32_t count);
#endif
} thr_hal;

#ifdef __cplusplus
}
#endif

#endif
