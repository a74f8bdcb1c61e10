/* The boot epoch, shared by the ports. The link's last epoch is kept in .noinit RAM, which no
 * start-up code clears; the next boot starts one past it, so after a reset that keeps the RAM powered
 * (a watchdog, a software reset, the reset pin) the epoch differs from every epoch the host may still
 * hold, and its next frame learns of the reset (PROTOCOL.md §4.2). After a power-up the RAM holds
 * noise on a real chip (a random epoch) and 0 under QEMU (epoch 1). The linker script must place
 * .noinit in RAM as NOLOAD. */
#ifndef THRUM_PORTS_BOOT_EPOCH_H
#define THRUM_PORTS_BOOT_EPOCH_H

#include <stdint.h>

uint16_t boot_epoch(void);
void remember_epoch(uint16_t epoch); /* main loop: the link's epoch */

#endif
