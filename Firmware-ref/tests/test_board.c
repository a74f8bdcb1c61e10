#include "test_board.h"

#include <string.h>

void board_setup(stub_board *board)
{
    stub_board_init(board);
    stub_board_start(board);
}

void board_run_ms(stub_board *board, uint32_t ms)
{
    uint32_t i;
    for (i = 0; i < ms; i++) {
        thr_core_poll(&board->core);
        board->clock_us += 1000u;
    }
}

uint32_t make_timeline(uint8_t *out, uint8_t flags, const uint8_t *body, uint32_t body_length)
{
    out[0] = 0x54;
    out[1] = 0x4C;
    out[2] = 1;
    out[3] = flags;
    memcpy(out + 8, body, body_length);
    thr_put32(out + 4, thr_crc32_update(thr_crc32_update(0, out, 4), out + 8, body_length));
    return body_length + 8u;
}

static const thr_trace_sample *trace_at(const stub_board *board, uint32_t ms)
{
    uint32_t i;
    for (i = 0; i < board->trace_count; i++) {
        if (board->trace[i].channel == 0 && board->trace[i].time_us == ms * 1000u) return &board->trace[i];
    }
    return 0;
}

int trace_intensity_at(const stub_board *board, uint32_t ms)
{
    const thr_trace_sample *s = trace_at(board, ms);
    return s ? s->intensity_q15 : -1;
}

int trace_sharpness_at(const stub_board *board, uint32_t ms)
{
    const thr_trace_sample *s = trace_at(board, ms);
    return s ? s->sharpness_q15 : -1;
}

#if THR_AUDIO_SAMPLES
long audio_sample_at(const stub_board *board, uint32_t us)
{
    uint32_t period = board->core.audio_period_us, index;
    if (period == 0u) return -99999;
    if (board->audio_count == 0u || us < board->audio_first_us) return 0; /* nothing written yet: silent */
    index = (us - board->audio_first_us) / period;
    return index < board->audio_count ? board->audio[index] : 0;
}
#endif
