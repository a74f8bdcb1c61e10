/* Template port: where a new board starts. Every HAL function of thr_hal.h is here, stubbed, with
 * what the core expects of it (Firmware-ref/PORTING.md has the whole contract). It compiles with
 * the host gcc (`make`) and with arm-none-eabi-gcc (`make CC=arm-none-eabi-gcc`, compile only);
 * it runs nothing useful. Copy the folder, rename the board, fill in each TODO. */
#include "thr_core.h"

static thr_core core; /* all of the core's state; no globals inside the core */
static uint8_t timeline_memory[16384];

/* A free-running microsecond clock, wrapping at 2^32 (the wire's board time). Main loop only.
 * Usually a millisecond tick count plus the sub-millisecond part of the tick timer. */
static uint32_t now_us(void *ctx)
{
    (void)ctx;
    return 0; /* TODO: the board's clock */
}

/* Every tick, every channel: the drive in Q14 of the channel's max_mv (negative = reverse phase,
 * braking) and the carrier in 0.1 Hz (0 = DC). Must return quickly: it runs inside the tick. */
static void actuator_write(void *ctx, uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    (void)ctx;
    (void)channel;
    (void)drive_q14;
    (void)frequency_dhz; /* TODO: a PWM duty, a DAC level or a driver chip (drivers/drv2605l.h) */
}

/* The slot flash, addresses from 0 within the region of the configuration. 0 = success. Reads
 * may be any length; writes follow flash_program_size; erase takes a sector's start. */
static int flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    (void)ctx;
    (void)address;
    (void)out;
    (void)length;
    return -1; /* TODO: or leave slot_count 0 and these NULL */
}

static int flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    (void)address;
    (void)data;
    (void)length;
    return -1;
}

static int flash_erase(void *ctx, uint32_t sector_address)
{
    (void)ctx;
    (void)sector_address;
    return -1;
}

/* The host link's transmit: may block until the bytes are queued (polled TX is fine). */
static void serial_write(void *ctx, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    (void)data;
    (void)length; /* TODO: the UART */
}

/* Around the receive ring: mask the UART receive interrupt (only it: the clock keeps running),
 * return whether it was enabled, restore that. */
static uint32_t critical_enter(void *ctx)
{
    (void)ctx;
    return 0; /* TODO */
}

static void critical_exit(void *ctx, uint32_t state)
{
    (void)ctx;
    (void)state;
}

/* Optional: one I2C transaction (write tx, then a repeated start and read rx), bounded in time;
 * THR_I2C_OK, THR_I2C_NACK or THR_I2C_TIMEOUT. The core never calls it; channel drivers do. */
static int i2c_transfer(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                        uint32_t rx_length)
{
    (void)ctx;
    (void)bus;
    (void)address;
    (void)tx;
    (void)tx_length;
    (void)rx;
    (void)rx_length;
    return THR_I2C_NACK; /* TODO: or NULL in the HAL when no driver needs a bus */
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
    .trace = 0, /* optional: what each tick rendered (simulators, tests) */
    .i2c_transfer = i2c_transfer,
    /* optional: .actuator_calibrate_start / .actuator_calibrate_poll (ACTUATOR_CALIBRATE) */
};

static const thr_board_config config = {
    .firmware = "thrum-ref 0.1 template",
    .board = "template",
    .serial = "0000", /* TODO: from the chip's unique ID */
    .tick_hz = 1000,
    .channel_count = 1,
    /* name: what CHANNEL_READ tells the host (<= 16 bytes of UTF-8: "left", "thumb"), or NULL */
    .channels = { { .kind = THR_ACTUATOR_KIND_LRA,
                    .resonant_dhz = 1700,
                    .rated_mv = 2000,
                    .max_mv = 3000,
                    .name = "main" } },
    .slot_count = 0, /* no flash store until flash_* work; then flash_size, the sectors, slot_size */
    .keepalive_ms = 500,
    .fade_ms = 50,
    .boot_epoch = 0, /* TODO: one past the last epoch (RAM kept over resets) or a random value */
};

/* TODO: the UART receive interrupt hands each byte to the core, and does nothing else. */
void uart_rx_interrupt(void);
void uart_rx_interrupt(void)
{
    uint8_t byte = 0; /* TODO: the received byte */
    thr_core_rx_byte(&core, byte);
}

int main(void)
{
    /* TODO: clocks, the tick timer, the UART (and its receive interrupt), the watchdog */
    if (thr_core_init(&core, &hal, &config, timeline_memory, sizeof timeline_memory) != THR_STATUS_OK) return 1;
    for (;;) {
        thr_core_poll(&core); /* received frames, then every due tick */
                              /* TODO: kick the watchdog; sleep until the next interrupt when nothing is due */
#ifdef TEMPLATE_RUN_ONCE
        return 0;
#endif
    }
}
