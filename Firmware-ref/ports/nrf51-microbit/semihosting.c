/* QEMU: semihosting (`bkpt 0xAB`, operation in r0, argument in r1). SYS_WRITE0 writes a text to
 * QEMU's semihosting output: its chardev (`-semihosting-config ...,chardev=ID`, a file) or stderr.
 * SYS_EXIT_EXTENDED ends QEMU with an exit status. Needs `-semihosting-config enable=on,target=native`;
 * without it the BKPT is a HardFault, so only the QEMU image calls these. */
#include "port.h"

#define SYS_WRITE0           0x04u
#define SYS_EXIT_EXTENDED    0x20u
#define ADP_STOPPED_APP_EXIT 0x20026u

static void semihost(uint32_t operation_number, const void *argument_block)
{
    register uint32_t operation __asm__("r0") = operation_number;
    register const void *argument __asm__("r1") = argument_block;
    __asm__ volatile("bkpt 0xAB" : "+r"(operation) : "r"(argument) : "memory");
}

void semihosting_write_line(const char *text)
{
    semihost(SYS_WRITE0, text);
}

void semihosting_exit(uint32_t status)
{
    uint32_t block[2];
    block[0] = ADP_STOPPED_APP_EXIT;
    block[1] = status;
    semihost(SYS_EXIT_EXTENDED, block);
    for (;;) {}
}
