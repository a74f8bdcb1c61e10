/* QEMU: semihosting's SYS_EXIT_EXTENDED ends QEMU with the given exit status. Only with
 * `-semihosting-config enable=on,target=native`: without it (or on a board without a debugger)
 * the BKPT is a HardFault. */
#include "port.h"

#define SYS_EXIT_EXTENDED    0x20u
#define ADP_STOPPED_APP_EXIT 0x20026u

void semihosting_exit(uint32_t status)
{
    uint32_t block[2];
    register uint32_t operation __asm__("r0") = SYS_EXIT_EXTENDED;
    register uint32_t *argument __asm__("r1") = block;
    block[0] = ADP_STOPPED_APP_EXIT;
    block[1] = status;
    __asm__ volatile("bkpt 0xAB" : "+r"(operation) : "r"(argument) : "memory");
    for (;;) {}
}
