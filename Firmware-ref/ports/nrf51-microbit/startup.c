/* Reset handler and vector table: copy .data from flash, clear .bss, then main. The Cortex-M0 has no
 * VTOR: the table stays at address 0 (ARMv6-M ARM B1.5.3). It names only what the port uses (UART0,
 * TIMER0); every other exception goes to one handler that resets the board (a fault should not leave
 * the actuator driven). */
#include <stdint.h>

#include "port.h"
#include "startup_memory.h"

extern uint32_t _estack;
int main(void);
void Reset_Handler(void);
void UART0_IRQHandler(void);
void TIMER0_IRQHandler(void);
void Default_Handler(void);

typedef void (*vector)(void);
typedef struct vector_table {
    uint32_t *initial_stack;
    vector exceptions[15];        /* Reset .. SysTick */
    vector irq[TIMER0_IRQn + 1u]; /* device interrupts up to TIMER0 (IRQ = ID: RM §10.1.6, §5.2 Table 2) */
} vector_table;

void Reset_Handler(void)
{
    startup_memory_init();
    main();
    for (;;) {}
}

__attribute__((section(".isr_vector"), used)) const vector_table vectors = {
    &_estack,
    {
        Reset_Handler,       /* Reset */
        Default_Handler,     /* NMI */
        Default_Handler,     /* HardFault */
        0, 0, 0, 0, 0, 0, 0, /* reserved on ARMv6-M */
        Default_Handler,     /* SVCall */
        0, 0,                /* reserved */
        Default_Handler,     /* PendSV */
        Default_Handler,     /* SysTick: the nRF51 has none (QEMU models one; the port never starts it) */
    },
    { [UART0_IRQn] = UART0_IRQHandler, [TIMER0_IRQn] = TIMER0_IRQHandler },
};
