/* The system reset (the boot epoch that tells the host of it: ../common/boot_epoch.c). */
#include "port.h"

void system_reset(void)
{
    __asm__ volatile("dsb" ::: "memory");
    SCB_AIRCR = SCB_AIRCR_VECTKEY | SCB_AIRCR_SYSRESETREQ;
    __asm__ volatile("dsb" ::: "memory");
    for (;;) {}
}
