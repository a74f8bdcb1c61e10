/* The trace lines' text through the port's trace_put (trace_format.h). */
#include "trace_format.h"

void trace_text(const char *text)
{
    while (*text) trace_put(*text++);
}

void trace_hex2(uint8_t value)
{
    static const char digits[] = "0123456789abcdef";
    trace_put(digits[value >> 4]);
    trace_put(digits[value & 15u]);
}

void trace_decimal(uint32_t value)
{
    char reversed[10]; /* 4,294,967,295 */
    unsigned n = 0;
    do {
        reversed[n++] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value);
    while (n) trace_put(reversed[--n]);
}
