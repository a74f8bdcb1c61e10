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

/* What i2c_transfer returns. */
#define THR_I2C_OK      0
#define THR_I2C_NACK    (-1) /* nobody answered the address (or a data byte was refused) */
#define THR_I2C_TIMEOUT (-2) /* the bus hung (clock stretched or arbitration never won) */

/* A channel driver's calibration result (actuator_calibrate_poll), answered as CALIBRATION_RESULT. */
typedef struct thr_calibration {
    uint8_t status; /* thr_status: OK; INCOMPLETE when the driver's calibration failed */
    uint8_t reserved;
    uint16_t resonant_dhz;   /* measured resonance in 0.1 Hz (LRA); 0 = not measured */
    uint32_t impedance_mohm; /* 0 = not measured */
} thr_calibration;

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
     * Erase sets a whole sector to 0xFF. */
    int (*flash_read)(void *ctx, uint32_t address, uint8_t *out, uint32_t length);
    /* NOR rules (thr_board_config): the core erases a sector before it writes any of it, and every
     * write starts at a multiple of flash_program_size and is a whole number of them long. */
    int (*flash_write)(void *ctx, uint32_t address, const uint8_t *data, uint32_t length);
    /* `sector_address` is the start of a sector of the region (flash_sectors or flash_sector_size). */
    int (*flash_erase)(void *ctx, uint32_t sector_address);
    /* Serial transmit: queue `length` bytes for the line (may block until queued). */
    void (*serial_write)(void *ctx, const uint8_t *data, uint32_t length);
    /* Critical section around the receive ring buffer (mask the UART interrupt). May be NULL on
     * hosts where thr_core_rx_byte is called from the main loop. */
    uint32_t (*critical_enter)(void *ctx);
    void (*critical_exit)(void *ctx, uint32_t state);
    /* Optional (NULL = off): called once per channel per tick with what was rendered. */
    void (*trace)(void *ctx, const thr_trace_sample *sample);
#if THR_TRACE_READ
    /* Optional (NULL: TRACE_READ answers not_supported): up to `max` ticks of `channel`'s rendered
     * intensity, Q14 (intensity_q15 / 2), from the first tick the board kept at or after
     * *from_time (wrap-safe); sets *from_time to that tick's time and returns how many. */
    uint16_t (*trace_read)(void *ctx, uint8_t channel, uint32_t *from_time, int16_t *out, uint16_t max);
#endif
#if THR_AUDIO_SAMPLES
    /* Optional (NULL = off): the audio output's samples for one tick (SEMANTICS.md §6.4),
     * audio_rate_hz / tick_hz of them, the first at board time `time_us`, Q15 signed. Called for
     * every tick in which a sound plays and the one after; ticks without a call are silent. */
    void (*audio_write)(void *ctx, uint32_t time_us, const int16_t *samples, uint32_t count);
#endif
    /* ---- Optional, for channel drivers (NULL = not present: the core behaves as without them). ----
     * Placed last so that a board listing the fields above in order still compiles. */

    /* One I2C transaction with the 7-bit `address` on `bus`: write `tx` (tx_length may be 0), then,
     * if rx_length > 0, a repeated start and read `rx_length` bytes into `rx`. Returns THR_I2C_OK,
     * THR_I2C_NACK or THR_I2C_TIMEOUT, and returns within a bounded time that the port states (a
     * hung bus is a timeout, never a hang). The core never calls it: channel drivers do
     * (drivers/drv2605l.h), from actuator_write and from the port's main loop. */
    int (*i2c_transfer)(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                        uint32_t rx_length);
    /* ACTUATOR_CALIBRATE (both or neither; without them, or in a core built without
     * THR_ACTUATOR_CALIBRATION (thr_config.h), the core answers NOT_SUPPORTED with the configured
     * resonance). `actuator_calibrate_start` begins the channel driver's calibration and
     * returns at once: THR_STATUS_OK when it began, else the status to answer (BUSY, NOT_SUPPORTED,
     * ...). Then the core calls `actuator_calibrate_poll` once per rendered tick from its main loop,
     * never waiting, until it returns 1 with `result` filled in (it leaves `result` alone while it returns 0); the core answers CALIBRATION_RESULT
     * with it (an OK result's resonance becomes the channel's carrier). After
     * THR_CALIBRATION_TIMEOUT_MS without a result the core answers INCOMPLETE and stops polling (a
     * driver bounds its own calibration, so it is idle again by then). One calibration at a time:
     * another ACTUATOR_CALIBRATE meanwhile is answered BUSY. While a channel calibrates the core
     * goes on calling actuator_write for it: the driver owns the chip and ignores those. */
    thr_status (*actuator_calibrate_start)(void *ctx, uint8_t channel);
    int (*actuator_calibrate_poll)(void *ctx, uint8_t channel, thr_calibration *result);
} thr_hal;

/* Standby and idle (no hook: the design).
 * - Standby belongs to the channel drivers. The core writes drive 0 to a channel whenever it is
 *   silent (nothing playing, the engine stopped, the channel faulted); a driver enters its standby
 *   after its own idle time at 0 and wakes on the next non-zero drive (drivers/drv2605l.h). So
 *   ENGINE_STOP puts the drivers in standby and the next playback wakes them, with no call here.
 * - Idle: after thr_core_poll, thr_core_idle_us(core) (thr_core.h) says how long the core has
 *   nothing to do unless a byte arrives: 0 = poll again at once, else the time to the next tick.
 *   A port may sleep (wfi) until its tick timer or the UART interrupt wakes it. A byte that
 *   arrives between the check and the wfi wakes the wfi (the interrupt is pending), or, at worst,
 *   waits for the next timer interrupt: at most one tick. */

#ifdef __cplusplus
}
#endif

#endif
