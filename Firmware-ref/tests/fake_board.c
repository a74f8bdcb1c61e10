#include "fake_board.h"

#include <string.h>

static uint32_t now_us(void *ctx) { return ((fake_board *)ctx)->clock_us; }

static void actuator_write(void *ctx, uint8_t channel, int16_t drive, uint16_t frequency)
{
    fake_board *b = ctx;
    (void)frequency;
    if (channel < THR_MAX_CHANNELS) b->last_drive[channel] = drive;
}

static int flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    fake_board *b = ctx;
    if (b->dead || address > FAKE_FLASH_SIZE || length > FAKE_FLASH_SIZE - address) return -1;
    memcpy(out, b->flash + address, length);
    return 0;
}

/* Consumes `length` bytes of the power budget; returns how many may be done before the cut. */
static uint32_t budget(fake_board *b, uint32_t length)
{
    if (!b->cut_armed) return length;
    if (b->bytes_until_cut >= length) {
        b->bytes_until_cut -= length;
        return length;
    }
    length = b->bytes_until_cut;
    b->bytes_until_cut = 0;
    b->dead = 1;
    return length;
}

static int flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    fake_board *b = ctx;
    uint32_t i, allowed;
    if (b->dead || address > FAKE_FLASH_SIZE || length > FAKE_FLASH_SIZE - address) return -1;
    allowed = budget(b, length);
    for (i = 0; i < allowed; i++) b->flash[address + i] &= data[i];   /* NOR: bits only clear */
    b->flash_bytes_written += allowed;
    return b->dead ? -1 : 0;
}

static int flash_erase(void *ctx, uint32_t address)
{
    fake_board *b = ctx;
    uint32_t size = b->config.flash_sector_size, allowed;
    if (b->dead || address % size != 0u || address >= FAKE_FLASH_SIZE) return -1;
    /* an erase interrupted part-way leaves part of the sector erased */
    allowed = budget(b, size);
    memset(b->flash + address, 0xFF, allowed);
    return b->dead ? -1 : 0;
}

static void serial_write(void *ctx, const uint8_t *data, uint32_t length)
{
    fake_board *b = ctx;
    if (length > FAKE_TX_MAX - b->tx_count) length = FAKE_TX_MAX - b->tx_count;
    memcpy(b->tx + b->tx_count, data, length);
    b->tx_count += length;
}

static void trace(void *ctx, const thr_trace_sample *sample)
{
    fake_board *b = ctx;
    if (b->trace_count < FAKE_TRACE_MAX) b->trace[b->trace_count++] = *sample;
}

#if THR_AUDIO_SAMPLES
static void audio_write(void *ctx, uint32_t time_us, const int16_t *samples, uint32_t count)
{
    fake_board *b = ctx;
    uint32_t i, at;
    if (b->audio_count == 0u) b->audio_first_us = time_us;
    /* ticks without a call were silent: their samples stay 0 */
    at = (time_us - b->audio_first_us) / b->core.audio_period_us;
    for (i = 0; i < count && at + i < FAKE_AUDIO_MAX; i++) b->audio[at + i] = samples[i];
    if (at + i > b->audio_count) b->audio_count = at + i;
}

long audio_sample_at(const fake_board *board, uint32_t us)
{
    uint32_t period = board->core.audio_period_us, index;
    if (period == 0u) return -99999;
    if (board->audio_count == 0u || us < board->audio_first_us) return 0;   /* nothing written yet: silent */
    index = (us - board->audio_first_us) / period;
    return index < board->audio_count ? board->audio[index] : 0;
}
#endif

void fake_board_reboot(fake_board *board)
{
    board->dead = 0;
    board->cut_armed = 0;
    thr_core_init(&board->core, &board->hal, &board->config, board->memory, sizeof board->memory);
}

void fake_board_init(fake_board *board)
{
    memset(board, 0, sizeof *board);
    memset(board->flash, 0xFF, sizeof board->flash);
    board->hal.ctx = board;
    board->hal.now_us = now_us;
    board->hal.actuator_write = actuator_write;
    board->hal.flash_read = flash_read;
    board->hal.flash_write = flash_write;
    board->hal.flash_erase = flash_erase;
    board->hal.serial_write = serial_write;
    board->hal.trace = trace;
#if THR_AUDIO_SAMPLES
    board->hal.audio_write = audio_write;
#endif
    board->config.firmware = "thrum-ref 0.1";
    board->config.board = "fake";
    board->config.serial = "0001";
    board->config.tick_hz = 1000;
    board->config.channel_count = 1;
    board->config.channels[0].kind = THR_ACTUATOR_LRA;
    board->config.channels[0].resonant_dhz = 1700;
    board->config.channels[0].rated_mv = 2000;
    board->config.channels[0].max_mv = 3000;
    board->config.flash_size = FAKE_FLASH_SIZE;
    board->config.flash_sector_size = 1024;
    board->config.slot_count = 4;
    board->config.slot_size = 2048;
    board->config.keepalive_ms = 500;
    board->config.fade_ms = 50;
    fake_board_reboot(board);
}

void fake_board_run_ms(fake_board *board, uint32_t ms)
{
    uint32_t i;
    for (i = 0; i < ms; i++) {
        thr_core_poll(&board->core);
        board->clock_us += 1000u;
    }
}

uint32_t make_timeline(uint8_t *out, uint8_t flags, const uint8_t *body, uint32_t body_length)
{
    uint32_t crc;
    out[0] = 0x54;
    out[1] = 0x4C;
    out[2] = 1;
    out[3] = flags;
    memcpy(out + 8, body, body_length);
    crc = thr_crc32_update(thr_crc32_update(0, out, 4), out + 8, body_length);
    out[4] = (uint8_t)crc;
    out[5] = (uint8_t)(crc >> 8);
    out[6] = (uint8_t)(crc >> 16);
    out[7] = (uint8_t)(crc >> 24);
    return body_length + 8u;
}

static const thr_trace_sample *trace_at(const fake_board *board, uint32_t ms)
{
    uint32_t i;
    for (i = 0; i < board->trace_count; i++) {
        if (board->trace[i].channel == 0 && board->trace[i].time_us == ms * 1000u) return &board->trace[i];
    }
    return 0;
}

int trace_intensity_at(const fake_board *board, uint32_t ms)
{
    const thr_trace_sample *s = trace_at(board, ms);
    return s ? s->intensity_q15 : -1;
}

int trace_sharpness_at(const fake_board *board, uint32_t ms)
{
    const thr_trace_sample *s = trace_at(board, ms);
    return s ? s->sharpness_q15 : -1;
}
