/* The board: its configuration (name, serial from the chip's device ID, one LRA channel on the
 * DRV2605L, the slot flash) and the HAL (thr_hal.h) over the port's modules, whose functions take
 * the HAL's shape themselves (no wrappers: every byte counts on a 16 KB budget). */
#include "drv2605l.h"
#include "port.h"

#ifndef THRUM_TIMELINE_MEMORY
/* 16 KB of RAM: the core's 3,880 bytes (`make -C Firmware-ref size`), the port's few hundred, a 2 KB
 * stack (nrf51822.ld), and this. */
#define THRUM_TIMELINE_MEMORY 8192u
#endif
#define SLOT_COUNT       3u
#define STANDBY_AFTER_MS 100u

#if THRUM_QEMU
#define BOARD_NAME(crystal) "qemu-microbit"
#else
#define BOARD_NAME(crystal) ((crystal) ? "microbit-v1" : "microbit-v1 rc-clock")
#endif

thr_core board_core;
static uint8_t timeline_memory[THRUM_TIMELINE_MEMORY];
static thr_board_config config;
static drv2605l chip;

static uint32_t now_us(void *ctx)
{
    (void)ctx;
    return tick_now_us();
}

/* The DRV2605L follows the LRA's resonance itself: the carrier frequency is not needed. */
static void actuator_write(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)channel;
    (void)frequency_dhz;
    drv2605l_write(&chip, drive_q14);
}

static const thr_hal hal = {
    .now_us = now_us,
    .actuator_write = actuator_write,
    .flash_read = slot_flash_read,
    .flash_write = slot_flash_write,
    .flash_erase = slot_flash_erase,
    .serial_write = uart0_write,
    .critical_enter = uart0_irq_mask,
    .critical_exit = uart0_irq_restore,
    .i2c_transfer = twi_transfer,
};

/* Closed loop (the chip tracks the LRA's resonance); standby after 100 ms at drive 0. */
static const drv2605l_config chip_config = {
    .bus = 0,
    .address = DRV2605L_ADDRESS,
    .kind = THR_ACTUATOR_KIND_LRA,
    .rated_mv = 2000,
    .max_mv = 3000,
    .resonant_dhz = 1700, /* 170 Hz, a common coin LRA */
    .standby_after_ms = STANDBY_AFTER_MS,
};

/* The 64-bit device ID as 16 hex digits, high word first. The QEMU board has a fixed serial. */
static const char *serial_number(void)
{
#if THRUM_QEMU
    return "qemu-0001";
#else
    static const char digits[] = "0123456789ABCDEF";
    static char text[17];
    unsigned word, nibble, n = 0;
    for (word = 2; word-- > 0;) {
        uint32_t value = FICR_DEVICEID(word);
        for (nibble = 8; nibble-- > 0;) text[n++] = digits[(value >> (4u * nibble)) & 15u];
    }
    text[n] = '\0';
    return text;
#endif
}

void board_init(void)
{
    config.firmware = "thrum-ref 0.1 nrf51";
    config.board = BOARD_NAME(clock_crystal);
    config.serial = serial_number();
    config.tick_hz = 1000;
    config.channel_count = 1;
    config.channels[0].kind = chip_config.kind;
    config.channels[0].resonant_dhz = chip_config.resonant_dhz;
    config.channels[0].rated_mv = chip_config.rated_mv;
    config.channels[0].max_mv = chip_config.max_mv;
    config.flash_size = slot_flash_size;
    config.flash_sector_size = slot_page_size;
    config.slot_count = SLOT_COUNT;
    config.slot_size = THRUM_TIMELINE_MEMORY; /* no bigger than what the timeline memory loads */
    config.keepalive_ms = 500;
    config.fade_ms = 50;
    config.audio_output = THR_AUDIO_OUTPUT_NONE;
    config.boot_epoch = boot_epoch();
    (void)drv2605l_init(&chip, &hal, &chip_config, 0, tick_now_us()); /* a missing chip reports itself */
    (void)thr_core_init(&board_core, &hal, &config, timeline_memory, sizeof timeline_memory);
    uart0_init(&board_core);
}

void board_poll(void)
{
    thr_fault fault;
    if (drv2605l_poll(&chip, tick_now_us(), &fault)) thr_core_channel_fault(&board_core, 0, fault);
}
