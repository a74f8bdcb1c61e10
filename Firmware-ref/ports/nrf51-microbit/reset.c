/* The boot epoch and the system reset. The link's last epoch lives in .noinit RAM, which the start-up
 * code leaves alone; the next boot starts one past it, so after a reset that keeps RAM (the watchdog,
 * a soft reset, the reset button) the host's next frame learns of the reset (PROTOCOL.md §4.2). After
 * power-up the RAM holds noise on the chip (a random epoch), and QEMU's is 0 (epoch 1). */
#include "port.h"

static uint16_t last_epoch __attribute__((section(".noinit")));

uint16_t boot_epoch(void)
{
    uint16_t next = (uint16_t)(last_epoch + 1u);
    return next ? next : 1u; /* 0 asks the core for an epoch from the clock */
}

void remember_epoch(uint16_t epoch)
{
    last_epoch = epoch;
}

void system_reset(void)
{
    __asm__ volatile("dsb" ::: "memory");
    SCB_AIRCR = SCB_AIRCR_VECTKEY | SCB_AIRCR_SYSRESETREQ;
    __asm__ volatile("dsb" ::: "memory");
    for (;;) {}
}
