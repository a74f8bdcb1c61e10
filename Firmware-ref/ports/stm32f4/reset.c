/* The boot epoch and the system reset. The link's last epoch is kept in .noinit RAM, which no
 * start-up code clears, and the next boot starts one past it: after a reset that keeps the RAM
 * powered (watchdog, software reset, the reset pin) the epoch differs from every epoch the host
 * may still hold, so its next frame learns of the reset (PROTOCOL.md §4.2). After a power-up the
 * RAM holds noise on a real chip (a random epoch) and 0 under QEMU (epoch 1). */
#include "port.h"

static uint16_t last_epoch __attribute__((section(".noinit")));

uint16_t boot_epoch(void)
{
    uint16_t epoch = (uint16_t)(last_epoch + 1u);
    return epoch ? epoch : 1u; /* 0 would ask the core to derive one from the clock */
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
