/* QEMU: USART1 (QEMU's first -serial, e.g. `-serial file:act.log`) carries text lines for the
 * host: the I2C trace and the figures. Polled: QEMU's TXE always reads 1. */
#include "port.h"

void trace_init(void)
{
    USART_BRR(USART1_BASE) = (2u * APB1_CLOCK_HZ + 57600u) / 115200u; /* APB2 84 MHz; QEMU ignores it */
    USART_CR1(USART1_BASE) = USART_CR1_UE | USART_CR1_TE;
}

static void put(char c)
{
    while (!(USART_SR(USART1_BASE) & USART_SR_TXE)) {}
    USART_DR(USART1_BASE) = (uint8_t)c;
}

void trace_text(const char *text)
{
    while (*text) put(*text++);
}

void trace_hex2(uint8_t value)
{
    static const char digits[] = "0123456789abcdef";
    put(digits[value >> 4]);
    put(digits[value & 15u]);
}

void trace_decimal(uint32_t value)
{
    char text[11];
    unsigned n = 0;
    do {
        text[n++] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value);
    while (n) put(text[--n]);
}

void trace_end_line(void)
{
    put('\n');
}
