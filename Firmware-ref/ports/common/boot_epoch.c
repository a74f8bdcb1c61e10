/* The boot epoch (boot_epoch.h). */
#include "boot_epoch.h"

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
