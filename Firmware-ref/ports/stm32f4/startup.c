/* Reset handler and vector table: copy .ramfunc and .data from flash, clear .bss, move the vector
 * table to RAM, then main. The vector table names only what the port uses (SysTick, USART2); every
 * other exception goes to one handler that resets the board (a fault should not leave the actuators
 * driven). The table the core reads on an exception is a copy in RAM (SCB VTOR): during a flash
 * erase a vector fetched from flash would stall the interrupt for the whole erase (flash.c). */
#include <stdint.h>

#include "port.h"
#include "startup_memory.h"

extern uint32_t _estack, _siramfunc, _sramfunc, _eramfunc;
int main(void);
void Reset_Handler(void);
void SysTick_Handler(void);
void USART2_IRQHandler(void);
void Default_Handler(void);

typedef void (*vector)(void);
typedef struct vector_table {
    uint32_t *initial_stack;
    vector exceptions[15];        /* Reset .. SysTick */
    vector irq[USART2_IRQn + 1u]; /* device interrupts up to USART2 */
} vector_table;

extern const vector_table vectors;
/* VTOR wants the table aligned to its size rounded up to a power of two: the F401's 16 + 85
 * vectors (RM0368 §10.2, vector table) take 512 bytes. */
static vector_table ram_vectors __attribute__((aligned(512)));

void Reset_Handler(void)
{
    const uint32_t *from = &_siramfunc;
    uint32_t *to;
    for (to = &_sramfunc; to < &_eramfunc;) *to++ = *from++;
    startup_memory_init();
    ram_vectors = vectors;
    SCB_VTOR = (uint32_t)&ram_vectors;
    __asm__ volatile("dsb\n isb" ::: "memory");
    main();
    for (;;) {}
}

__attribute__((section(".isr_vector"), used)) const vector_table vectors = {
    &_estack,
    {
        Reset_Handler,   /* Reset */
        Default_Handler, /* NMI */
        Default_Handler, /* HardFault */
        Default_Handler, /* MemManage */
        Default_Handler, /* BusFault */
        Default_Handler, /* UsageFault */
        0, 0, 0, 0,      /* reserved */
        Default_Handler, /* SVCall */
        Default_Handler, /* DebugMonitor */
        0,               /* reserved */
        Default_Handler, /* PendSV */
        SysTick_Handler, /* SysTick */
    },
    { [USART2_IRQn] = USART2_IRQHandler },
};
