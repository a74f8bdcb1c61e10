/* The Thrum firmware core as the simulator builds it: larger limits than a Cortex-M0+ board
 * (thr_config.h lets a port raise them with -D). Package.swift passes the same values to the C
 * compiler; thrum_sim_core_size lets Swift check that both sides agree on the layout. */
#ifndef THRUM_FIRMWARE_CORE_H
#define THRUM_FIRMWARE_CORE_H

#include <stddef.h>

#ifndef THR_MAX_CHANNELS
#define THR_MAX_CHANNELS 8u /* the most the wire carries (INFO, PLAYER_CHANNELS) */
#endif
#ifndef THR_MAX_PLAYERS
#define THR_MAX_PLAYERS 4u
#endif
#ifndef THR_MAX_ACTIVE
#define THR_MAX_ACTIVE 128u
#endif
#ifndef THR_MAX_TIMELINES
#define THR_MAX_TIMELINES 8u
#endif
#ifndef THR_MAX_SLOTS
#define THR_MAX_SLOTS 8u
#endif
#ifndef THR_AUDIO_SAMPLES
#define THR_AUDIO_SAMPLES 1        /* the simulated board plays waveform objects (WAVEFORM.md) */
#endif

#ifndef THR_RX_HOLD_FRAMES
#define THR_RX_HOLD_FRAMES 2u /* holds the frames after a gap and sends SACK (PROTOCOL.md §6.3) */
#endif
#ifndef THR_CHANNEL_PAN
#define THR_CHANNEL_PAN 1 /* the channel pan (SEMANTICS.md §12.2) */
#endif
#ifndef THR_TRACE_READ
#define THR_TRACE_READ 1 /* TRACE_READ answers from the simulator's trace memory (PROTOCOL.md, TRACE_READ) */
#endif

#include "../core/include/thr_core.h"
#include "../core/include/thr_flash.h"

/* sizeof(thr_core) as the C side compiled it. */
size_t thrum_sim_core_size(void);

#endif
