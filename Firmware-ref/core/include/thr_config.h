/* Compile-time limits and the board's constant configuration.
 * Limits are macros so a port can shrink RAM with -D; the board configuration is a const struct
 * (TinyUSB/Zephyr style: const config apart from mutable state). */
#ifndef THR_CONFIG_H
#define THR_CONFIG_H

#include <stdint.h>

#include "thr_wire.h"

#ifndef THR_MAX_CHANNELS
#define THR_MAX_CHANNELS 2u /* actuator channels */
#endif
#ifndef THR_MAX_PLAYERS
#define THR_MAX_PLAYERS 3u /* players that can play at once */
#endif
#ifndef THR_MAX_PASSES
#define THR_MAX_PASSES 3u /* overlapping loop passes per player (SEMANTICS §7.3) */
#endif
#ifndef THR_MAX_ACTIVE
#define THR_MAX_ACTIVE 20u /* events sounding at once, over all players */
#endif
#ifndef THR_MAX_TIMELINES
#define THR_MAX_TIMELINES 3u /* timelines loaded at once */
#endif
#ifndef THR_RT_CURVE_POINTS
#define THR_RT_CURVE_POINTS 8u /* points of a run-time curve (PLAYER_CURVE), per player */
#endif
#ifndef THR_RT_PENDING
#define THR_RT_PENDING 4u /* scheduled run-time steps waiting for their time, per player */
#endif
#ifndef THR_MAX_SLOTS
#define THR_MAX_SLOTS 4u /* flash slots */
#endif
#ifndef THR_AUDIO_SAMPLES
#define THR_AUDIO_SAMPLES 0 /* 1: play waveform objects on an audio output (WAVEFORM.md) */
#endif
#ifndef THR_AUDIO_MAX_PER_TICK
#define THR_AUDIO_MAX_PER_TICK 48u /* audio samples rendered per tick at most (audio_rate_hz / tick_hz) */
#endif
#ifndef THR_FLASH_PROGRAM_MAX
/* The largest thr_board_config.flash_program_size (bytes, a power of two up to 32). 1 (the
 * default): byte-programmable flash, every write as it is (the Cortex-M0+ size build, the
 * simulator, the stub board). A board whose flash programs in units raises it to its unit: the
 * STM32F4 port (its map's tests use 16), STM32L4/G0 8, STM32H7 32; the store then pads every write
 * to whole units (about 150 bytes more). A flash_program_size above it leaves the store off. */
#define THR_FLASH_PROGRAM_MAX 1u
#endif
#ifndef THR_FLASH_SECTOR_MAP
/* 1: the flash region may have unequal sectors (thr_board_config.flash_sectors, a sector map), as
 * an STM32F4's 16/64/128 KB sectors. Off by default: a board with equal sectors (flash_sector_size)
 * does not pay for it (the Cortex-M0+ size build, the simulator). The STM32F4 port turns it on
 * (-DTHR_FLASH_SECTOR_MAP=1), as does one test build (Makefile). */
#define THR_FLASH_SECTOR_MAP 0
#endif
#ifndef THR_ACTUATOR_CALIBRATION
/* 1: ACTUATOR_CALIBRATE runs the channel driver's calibration through hal.actuator_calibrate_start
 * and _poll and answers CALIBRATION_RESULT when it is done (thr_hal.h; the DRV2605L driver's
 * auto-calibration, drivers/). 0 (the default): it answers NOT_SUPPORTED with the configured
 * resonance, the hooks unused, about 250 bytes less: the Cortex-M0+ size build does not fit 16 KB
 * with it. A port with a calibrating driver turns it on (the STM32F4 port with its DRV2605L), as
 * does the clang test build (Makefile). */
#define THR_ACTUATOR_CALIBRATION 0
#endif
#ifndef THR_CHANNEL_PAN
/* 1: the channel pan (the wire's channel_pan_control, SEMANTICS.md §12.2): a player's ordered
 * channel set (PLAYER_CHANNELS) and a run-time pan control share its events' power between two
 * neighbouring channels. 0 (the default): a player renders on its set at full level, PLAYER_PARAM
 * and PLAYER_CURVE for the pan answer NOT_SUPPORTED and RT_PARAM for it is dropped (realtime
 * messages are never answered); about 600 bytes of code and 12 + 2 x THR_MAX_CHANNELS + 2 bytes
 * of RAM a player less: the Cortex-M0+ size build does not fit 16 KB with it. PLAYER_CHANNELS,
 * CLOCK_TRIM and CHANNEL_READ are there either way. The clang test build, the fuzzers, the
 * simulator and the STM32F4 port turn it on. */
#define THR_CHANNEL_PAN 0
#endif
#ifndef THR_RENDER_RAMPS_INLINE
/* 1 (the default): the renderer works out an event in its attack or decay in its loop over the
 * events, as it does a steady one, rather than through the general per-event path (a call and the
 * tests of every case). 0: 256 bytes less in the budget build (the reciprocal's code goes with it),
 * and on a Cortex-M0+ 16 ramping events cost 5,453 instructions a tick rather than 3,370 (issue
 * 22's bound: 3,500). */
#define THR_RENDER_RAMPS_INLINE 1
#endif
#ifndef THR_RENDER_RAMP_RECIPROCAL
/* 1: the inline ramps divide by multiplying with the reciprocal of the segment's length, worked out
 * once, at the segment's first tick (thr_ramp_reciprocal: the same quotient to the bit). The
 * default: on where a division is not an instruction (Cortex-M0/M0+: a software division costs
 * about a hundred); off where it is (Cortex-M3/M4/M7, hosts), which the multiplies would slow. */
#if defined(__arm__) && !defined(__ARM_FEATURE_IDIV)
#define THR_RENDER_RAMP_RECIPROCAL 1
#else
#define THR_RENDER_RAMP_RECIPROCAL 0
#endif
#endif
#ifndef THR_TRACE_READ
/* 1: TRACE_READ reads the board's trace memory through hal.trace_read (thr_hal.h): the simulator,
 * whose tests and benchmarks read back what each channel rendered. 0 (the default): TRACE_READ
 * answers not_supported; a board with no memory to spare for a trace does not pay for the call. */
#define THR_TRACE_READ 0
#endif
#ifndef THR_CALIBRATION_TIMEOUT_MS
#define THR_CALIBRATION_TIMEOUT_MS 3000u /* ACTUATOR_CALIBRATE answered INCOMPLETE after this */
#endif
#if THR_MAX_CHANNELS > 8u
#error "THR_MAX_CHANNELS: at most 8 (INFO and PLAYER_CHANNELS list at most 8; a player's channel set is a byte)"
#endif
/* The defaults fit the budget of a Cortex-M0+ board (static RAM <= 4 KB beyond the timeline
 * memory, `make size`); a bigger board or the simulator raises them with -D. */

typedef struct thr_channel_config {
    uint8_t kind;          /* thr_actuator_kind: THR_ACTUATOR_KIND_LRA or _ERM (thr_wire.h) */
    uint16_t resonant_dhz; /* LRA resonance in 0.1 Hz (0 for ERM) */
    uint16_t rated_mv;     /* continuous rating (RMS); full intensity drives this */
    uint16_t max_mv;       /* overdrive clamp (peak); never exceeded */
    const char *name;      /* short name for hosts (CHANNEL_REPLY), <= 16 bytes: "left", "thumb"; NULL = none */
} thr_channel_config;

typedef struct thr_board_config {
    const char *firmware;  /* version text, <= 32 bytes */
    const char *board;     /* board name, <= 32 bytes */
    const char *serial;    /* serial number, <= 32 bytes */
    uint32_t tick_hz;      /* renderer tick rate; 1,000,000 / tick_hz must be a whole number */
    uint8_t channel_count; /* 1..THR_MAX_CHANNELS */
    thr_channel_config channels[THR_MAX_CHANNELS];
    /* Flash region for slots: [0, flash_size) in the HAL's addresses. 0 slots = no flash store.
     * Sectors: equal ones of flash_sector_size bytes (at least 64), or, with THR_FLASH_SECTOR_MAP,
     * a sector map: flash_sectors lists the sizes of the region's consecutive sectors from address 0
     * (flash_sector_count of them; flash_sector_size is then not used; NULL = equal sectors). An
     * STM32F4 region from its sector 5 on is { 128 KB, 128 KB, 128 KB }; one from sector 1 on is
     * { 16, 16, 16, 64, 128, ... } KB. The store places every bank on whole sectors and erases them
     * before writing (NOR: a write only clears bits). flash_program_size: the write granularity, a
     * power of two up to THR_FLASH_PROGRAM_MAX (0 or 1 = any byte): every write starts at a multiple
     * of it and is a whole number of them long (the store pads with 0xFF). */
    uint32_t flash_size;
    uint32_t flash_sector_size;
#if THR_FLASH_SECTOR_MAP
    const uint32_t *flash_sectors;
    uint8_t flash_sector_count;
#endif
    uint8_t flash_program_size;
    uint8_t slot_count;    /* <= THR_MAX_SLOTS */
    uint32_t slot_size;    /* largest timeline a slot holds */
    uint16_t keepalive_ms; /* host silence after which streaming/long output fades out */
    uint16_t fade_ms;      /* length of that safety fade */
    uint8_t audio_output;  /* thr_audio_output (thr_wire.h) */
    /* Sample rate of the audio output; with THR_AUDIO_SAMPLES it must divide 1,000,000 and be a
     * multiple of tick_hz (at most THR_AUDIO_MAX_PER_TICK samples a tick), else no samples play. */
    uint32_t audio_rate_hz;
    uint8_t trigger_inputs;
    /* An epoch different from the previous boot's (boot counter or random); 0 = from the clock. */
    uint16_t boot_epoch;
} thr_board_config;

#endif
