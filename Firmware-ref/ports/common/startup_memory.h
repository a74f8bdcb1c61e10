/* The C run-time's memory at reset, shared by the Cortex-M ports' Reset_Handler: .data copied from its
 * load address in flash, .bss cleared. The symbols are the linker scripts' (_sidata: where .data is
 * stored; _sdata/_edata, _sbss/_ebss: where it and .bss run). .noinit is left alone. */
#ifndef THRUM_PORTS_STARTUP_MEMORY_H
#define THRUM_PORTS_STARTUP_MEMORY_H

#include <stdint.h>

extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss;

static inline void startup_memory_init(void)
{
    const uint32_t *from = &_sidata;
    uint32_t *to;
    for (to = &_sdata; to < &_edata;) *to++ = *from++;
    for (to = &_sbss; to < &_ebss;) *to++ = 0;
}

#endif
