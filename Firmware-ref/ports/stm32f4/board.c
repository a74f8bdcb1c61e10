/* The board: its configuration (name, serial from the chip's unique ID, channels, the slot flash)
 * and the HAL (thr_hal.h) over the port's modules. THRUM_CHANNELS (port.h) sets how many channels
 * INFO announces, each with its own rating (channel_ratings below). */
#include "board_actuator.h"
#include "port.h"
#if THRUM_MUX
#include "tca9548a.h"
#endif
#ifndef THRUM_TIMELINE_MEMORY
#define THRUM_TIMELINE_MEMORY 32768u
#endif

/* The Nucleo's board string names its clock (clock.c), which `thrum info` shows: "hse" when the
 * ST-LINK's 8 MHz runs it, "hsi-fallback" when that did not start and board time is only as good as
 * the internal RC oscillator (±1 % at 25 °C, ±4 % from -10 to 85 °C, DS10086 Table 39; the host
 * serves up to 3 %, PROTOCOL.md §7.4). The QEMU board keeps its name (the fallback runs there: QEMU
 * has no RCC) and says its clock on USART1 (main.c). */
#if THRUM_QEMU
#define BOARD_NAME(source) "qemu-netduinoplus2"
#define SLOT_COUNT         2u
#else
#define BOARD_NAME(source) ((source) == CLOCK_HSE_BYPASS ? "nucleo-f401re hse" : "nucleo-f401re hsi-fallback")
#define SLOT_COUNT         1u
#endif

/* Each channel's actuator, by mux port: edit a row for the LRA or ERM wired there. These are four
 * (up to eight) 10 mm coin LRAs of about 170 Hz, 2 V RMS rated, 3 V peak (PORTING.md §7, "Several DRV2605Ls on one board"). */
static const thr_channel_config channel_ratings[8] = {
    { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 }, { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 },
    { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 }, { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 },
    { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 }, { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 },
    { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 }, { THR_ACTUATOR_KIND_LRA, 1700, 2000, 3000, 0 },
};

/* Every channel may change its level every tick. Behind the mux a change costs about 120 us of the
 * 400 kHz bus and TCA9548A_CHANGES_PER_MS fit a millisecond (drivers/tca9548a/README.md): with more
 * channels than that the tick is 2 ms, which INFO's tick_hz says, rather than ticks running late and
 * the core catching up on them. */
#if THRUM_MUX && THRUM_CHANNELS > TCA9548A_CHANGES_PER_MS
#define TICK_HZ 500u
#else
#define TICK_HZ 1000u
#endif

thr_core board_core;
static uint8_t timeline_memory[THRUM_TIMELINE_MEMORY];
static thr_board_config config;

static uint32_t now_us(void *ctx)
{
    (void)ctx;
    return tick_now_us();
}

/* The DRV2605L follows the LRA's resonance itself: the carrier frequency is not needed. */
static void actuator_write(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)frequency_dhz;
    board_actuator_write(channel, drive_q14);
}

static thr_status actuator_calibrate_start(void *ctx, uint8_t channel)
{
    (void)ctx;
    return board_actuator_calibrate_start(channel);
}

static int actuator_calibrate_poll(void *ctx, uint8_t channel, thr_calibration *result)
{
    (void)ctx;
    return board_actuator_calibrate_poll(channel, result);
}

static int flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    (void)ctx;
    return slot_flash_read(address, out, length);
}

static int flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    return slot_flash_write(address, data, length);
}

static int flash_erase(void *ctx, uint32_t sector_address)
{
    (void)ctx;
    return slot_flash_erase(sector_address);
}

static void serial_write(void *ctx, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    usart2_write(data, length);
}

static uint32_t critical_enter(void *ctx)
{
    (void)ctx;
    return usart2_irq_mask();
}

static void critical_exit(void *ctx, uint32_t state)
{
    (void)ctx;
    usart2_irq_restore(state);
}

static int i2c_transfer_hal(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                            uint32_t rx_length)
{
    (void)ctx;
    return i2c_transfer(bus, address, tx, tx_length, rx, rx_length);
}

static const thr_hal hal = {
    .ctx = 0,
    .now_us = now_us,
    .actuator_write = actuator_write,
    .flash_read = flash_read,
    .flash_write = flash_write,
    .flash_erase = flash_erase,
    .serial_write = serial_write,
    .critical_enter = critical_enter,
    .critical_exit = critical_exit,
    .trace = 0,
    .i2c_transfer = i2c_transfer_hal,
    .actuator_calibrate_start = actuator_calibrate_start,
    .actuator_calibrate_poll = actuator_calibrate_poll,
};

/* The 96-bit unique ID as 24 hex digits, most significant word first. QEMU does not map the
 * system memory that holds it, so the QEMU board has a fixed serial. */
static const char *serial_number(void)
{
#if THRUM_QEMU
    return "qemu-0001";
#else
    static const char digits[] = "0123456789ABCDEF";
    static char serial_text[25]; /* 96 bits in hex */
    unsigned word, nibble, n = 0;
    for (word = 3; word-- > 0;) {
        uint32_t value = STM32F4_REG(UID_BASE + 4u * word);
        for (nibble = 8; nibble-- > 0;) serial_text[n++] = digits[(value >> (4u * nibble)) & 15u];
    }
    serial_text[n] = '\0';
    return serial_text;
#endif
}

void board_init(void)
{
    uint8_t channel;
    config.firmware = "thrum-ref 0.1 stm32f4";
    config.board = BOARD_NAME(clock_source);
    config.serial = serial_number();
    config.tick_hz = TICK_HZ;
    config.channel_count = THRUM_CHANNELS;
    for (channel = 0; channel < THRUM_CHANNELS; channel++) config.channels[channel] = channel_ratings[channel];
    config.flash_size = slot_flash_size;
    config.flash_sector_size = slot_sector_size;
    config.slot_count = SLOT_COUNT;
    /* a bank is one sector with its header; no bigger than what the timeline memory can load */
    config.slot_size = slot_sector_size - 64u < THRUM_TIMELINE_MEMORY ? slot_sector_size - 64u : THRUM_TIMELINE_MEMORY;
    config.keepalive_ms = 500;
    config.fade_ms = 50;
    config.audio_output = THR_AUDIO_OUTPUT_NONE;
    config.boot_epoch = boot_epoch();
    board_actuator_init(&hal, &config);
    (void)thr_core_init(&board_core, &hal, &config, timeline_memory, sizeof timeline_memory);
    usart2_init(&board_core);
}
