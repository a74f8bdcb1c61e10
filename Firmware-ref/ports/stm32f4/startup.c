/* Reset handler and vector table: copy .data from flash, clear .bss, then main. The vector table
 * names only what the port uses (SysTick, USART2); every other exception goes to one handler that
 * resets the board (a fault should not leave the actuators driven). */
#include <stdint.h>

#include "port.h"

extern uint32_t _estack, _sidata, _sdata, _edata, _sbss, _ebss;
int main(void);
void Reset_Handler(void);
void SysTick_Handler(void);
void USART2_IRQHandler(void);
void Default_Handler(void);

void Reset_Handler(void)
{
    const uint32_t *from = &_sidata;
    uint32_t *to;
    for (to = &_sdata; to < &_edata;) *to++ = *from++;
    for (to = &_sbss; to < &_ebss;) *to++ = 0;
    main();
    for (;;) {}
}

void Default_Handler(void)
{
    system_reset();
}

typedef void (*vector)(void);
typedef struct vector_table {
    uint32_t *initial_stack;
    vector exceptions[15];        /* Reset .. SysTick */
    vector irq[USART2_IRQn + 1u]; /* device interrupts up to USART2 */
} vector_table;

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
