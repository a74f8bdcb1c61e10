/* A minimal Cortex-M0+ firmware around the core, for `make size`: the linker keeps exactly what
 * a board that runs the link needs (init, receive interrupt, main loop), so the figure is the
 * code a real port carries, library helpers (division, memcpy) included. */
#include "thr_core.h"

static thr_core core;
static uint8_t timeline_memory[8192];
static volatile uint32_t fake_timer;

static uint32_t now_us(void *ctx) { (void)ctx; return fake_timer; }
static void actuator_write(void *ctx, uint8_t channel, int16_t drive, uint16_t frequency)
{
    (void)ctx; (void)channel; (void)drive; (void)frequency;
}
static int flash_read(void *ctx, uint32_t a, uint8_t *out, uint32_t n) { (void)ctx; (void)a; (void)out; (void)n; return 0; }
static int flash_write(void *ctx, uint32_t a, const uint8_t *d, uint32_t n) { (void)ctx; (void)a; (void)d; (void)n; return 0; }
static int flash_erase(void *ctx, uint32_t a) { (void)ctx; (void)a; return 0; }
static void serial_write(void *ctx, const uint8_t *d, uint32_t n) { (void)ctx; (void)d; (void)n; }

static const thr_hal hal = { 0, now_us, actuator_write, flash_read, flash_write, flash_erase, serial_write, 0, 0, 0 };
static thr_board_config config;

void uart_irq(void);
#ifdef SIZE_BASELINE
/* The same firmware without the core: the port's own code (its HAL functions, its configuration)
 * stays, kept alive through a volatile sink, so the difference is what the core costs. */
static const void *volatile sink;
void uart_irq(void) { sink = &hal; sink = &config; sink = &core; sink = timeline_memory; }
#else
void uart_irq(void) { thr_core_rx_byte(&core, (uint8_t)fake_timer); }
#endif

int main(void);
int main(void)
{
    config.tick_hz = 1000;
    config.channel_count = 1;
    config.channels[0].rated_mv = 2000;
    config.channels[0].max_mv = 3000;
    config.flash_size = 65536;
    config.flash_sector_size = 1024;
    config.slot_count = 4;
    config.slot_size = 4096;
    config.keepalive_ms = 300;
    config.fade_ms = 20;
#ifdef SIZE_BASELINE
    for (;;) uart_irq();   /* the configuration above is written all the same */
#else
    thr_core_init(&core, &hal, &config, timeline_memory, sizeof timeline_memory);
    for (;;) thr_core_poll(&core);
#endif
}
