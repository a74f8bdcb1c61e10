/* QEMU: USART1 (QEMU's first -serial, e.g. `-serial file:act.log`) carries text lines for the
 * host: the I2C trace and the figures. Polled: QEMU's TXE always reads 1. */
#include "port.h"

void trace_init(void)
{
    USART_BRR(USART1_BASE) = (2u * APB1_CLOCK_HZ + 57600u) / 115200u; /* APB2 84 MHz; QEMU ignores it */
    USART_CR1(USART1_BASE) = USART_CR1_UE | USART_CR1_TE;
}

void trace_put(char c)
{
    while (!(USART_SR(USART1_BASE) & USART_SR_TXE)) {}
    USART_DR(USART1_BASE) = (uint8_t)c;
}

void trace_end_line(void)
{
    trace_put('\n');
}
