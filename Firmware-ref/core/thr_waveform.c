/* Waveform objects (Protocol/WAVEFORM.md): validation of their bytes and what a commit checks.
 * They live in the timeline memory beside timelines; thr_audio.c plays them. Compiled in only for
 * boards with a sample output (THR_AUDIO_SAMPLES): a haptics-only board keeps its code budget. */
#include "thr_internal.h"

#if THR_AUDIO_SAMPLES

thr_tl_result thr_wf_validate(const uint8_t *b, uint32_t size)
{
    thr_tl_result r;
    r.error = THR_TL_OK;
    r.offset = 0;
    /* in the order of the spec's table; a field cut short is `truncated` at the size */
    if (size >= 2u && (b[0] != 0x57u || b[1] != 0x46u))
        r.error = THR_TL_BAD_MAGIC;
    else if (size < 3u)
        r.error = THR_TL_TRUNCATED;
    else if (b[2] != 1u) {
        r.error = THR_TL_BAD_VERSION;
        r.offset = 2;
    } else if (size < 4u)
        r.error = THR_TL_TRUNCATED;
    else if (b[3] != 0u) {
        r.error = THR_TL_BAD_FLAGS;
        r.offset = 3;
    } else if (size < 8u)
        r.error = THR_TL_TRUNCATED;
    else if (thr_get32(b + 4) == 0u) {
        r.error = THR_TL_VALUE_OUT_OF_RANGE;
        r.offset = 4;
    } else if (size < 12u)
        r.error = THR_TL_TRUNCATED;
    else if (thr_get32(b + 8) == 0u) {
        r.error = THR_TL_VALUE_OUT_OF_RANGE;
        r.offset = 8;
    } else if (size < 13u)
        r.error = THR_TL_TRUNCATED;
    if (r.error == THR_TL_TRUNCATED) r.offset = size;
    return r;
}

int thr_wf_is_object(const uint8_t *bytes, uint32_t size)
{
    return size >= 2u && bytes[0] == 0x57u && bytes[1] == 0x46u;
}

thr_status thr_wf_commit(thr_core *core, thr_stored_timeline *tl)
{
    const uint8_t *b = core->memory + tl->offset;
    if (thr_wf_validate(b, tl->size).error != THR_TL_OK) return THR_STATUS_BAD_TIMELINE;
    /* the host resamples; a board plays its own rate only (WAVEFORM.md §1) */
    if (thr_get32(b + 8) != core->config->audio_rate_hz) return THR_STATUS_NOT_SUPPORTED;
    tl->state = THR_TL_WAVEFORM;
    return THR_STATUS_OK;
}

#endif
