/* The stub board's HAL functions (stub_board.h). Byte loops rather than memcpy: the size build
 * links this file, and the C library's copy must not show up as something the core pulls in. The
 * fuzzers' build (STUB_LIBC_BYTES) takes the C library's: ASan checks a call once, not every byte. */
#include "stub_board.h"

#if STUB_LIBC_BYTES
#include <string.h>
#define copy(to, from, n) memcpy(to, from, n)
#define fill(to, byte, n) memset(to, byte, n)
#else
static void copy(uint8_t *to, const uint8_t *from, uint32_t n)
{
    while (n--) *to++ = *from++;
}

static void fill(uint8_t *to, uint8_t byte, uint32_t n)
{
    while (n--) *to++ = byte;
}
#endif

static uint32_t now_us(void *ctx)
{
    return ((stub_board *)ctx)->clock_us;
}

static void actuator_write(void *ctx, uint8_t channel, int16_t drive, uint16_t frequency)
{
    stub_board *b = ctx;
    (void)frequency;
    if (channel < THR_MAX_CHANNELS) b->last_drive[channel] = drive;
}

static int flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    stub_board *b = ctx;
    if (b->dead || address > STUB_FLASH_SIZE || length > STUB_FLASH_SIZE - address) return -1;
    copy(out, b->flash + address, length);
    return 0;
}

/* Consumes `length` bytes of the power budget; returns how many may be done before the cut. */
static uint32_t budget(stub_board *b, uint32_t length)
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
    stub_board *b = ctx;
    uint32_t i, allowed;
    if (b->dead || address > STUB_FLASH_SIZE || length > STUB_FLASH_SIZE - address) return -1;
    allowed = budget(b, length);
    for (i = 0; i < allowed; i++) b->flash[address + i] &= data[i]; /* NOR: bits only clear */
    b->flash_bytes_written += allowed;
    return b->dead ? -1 : 0;
}

static int flash_erase(void *ctx, uint32_t address)
{
    stub_board *b = ctx;
    uint32_t allowed;
    if (b->dead || address % STUB_SECTOR_SIZE != 0u || address >= STUB_FLASH_SIZE) return -1;
    /* an erase interrupted part-way leaves part of the sector erased */
    allowed = budget(b, STUB_SECTOR_SIZE);
    fill(b->flash + address, 0xFF, allowed);
    return b->dead ? -1 : 0;
}

static void serial_write(void *ctx, const uint8_t *data, uint32_t length)
{
    stub_board *b = ctx;
    if (length > STUB_TX_MAX - b->tx_count) length = STUB_TX_MAX - b->tx_count;
    copy(b->tx + b->tx_count, data, length);
    b->tx_count += length;
}

static void trace(void *ctx, const thr_trace_sample *sample)
{
    stub_board *b = ctx;
    if (b->trace_count < STUB_TRACE_MAX) b->trace[b->trace_count++] = *sample;
}

#if THR_AUDIO_SAMPLES
static void audio_write(void *ctx, uint32_t time_us, const int16_t *samples, uint32_t count)
{
    stub_board *b = ctx;
    uint32_t i, at;
    if (b->audio_count == 0u) b->audio_first_us = time_us;
    /* ticks without a call were silent: their samples stay 0 */
    at = (time_us - b->audio_first_us) / b->core.audio_period_us;
    for (i = 0; i < count && at + i < STUB_AUDIO_MAX; i++) b->audio[at + i] = samples[i];
    if (at + i > b->audio_count) b->audio_count = at + i;
}
#endif

void stub_board_init(stub_board *board)
{
    uint32_t i;
    fill(board->flash, 0xFF, STUB_FLASH_SIZE);
    board->clock_us = 0;
    board->cut_armed = board->dead = 0;
    board->bytes_until_cut = board->flash_bytes_written = 0;
    board->trace_count = board->tx_count = 0;
    for (i = 0; i < THR_MAX_CHANNELS; i++) board->last_drive[i] = 0;
#if THR_AUDIO_SAMPLES
    for (i = 0; i < STUB_AUDIO_MAX; i++) board->audio[i] = 0;
    board->audio_count = board->audio_first_us = 0;
#endif
    board->hal = (thr_hal){ 0 };
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
    board->config = (thr_board_config){ 0 };
    board->config.firmware = "thrum-ref 0.1";
    board->config.board = "stub";
    board->config.serial = "0001";
    board->config.tick_hz = 1000;
    board->config.channel_count = 1;
    board->config.channels[0].kind = THR_ACTUATOR_KIND_LRA;
    board->config.channels[0].resonant_dhz = 1700;
    board->config.channels[0].rated_mv = 2000;
    board->config.channels[0].max_mv = 3000;
    board->config.flash_size = STUB_FLASH_SIZE;
    board->config.flash_sector_size = STUB_SECTOR_SIZE;
    board->config.slot_count = 4;
    board->config.slot_size = 2048;
    board->config.keepalive_ms = 500;
    board->config.fade_ms = 50;
}

thr_status stub_board_start(stub_board *board)
{
    board->dead = 0;
    board->cut_armed = 0;
    return thr_core_init(&board->core, &board->hal, &board->config, board->memory, sizeof board->memory);
}
