/* QEMU: the trace's text lines, built in a buffer and sent whole, newline included, with one
 * semihosting call: a host reading the file never sees half a line for long, and each line costs one
 * trap rather than one per character. A line longer than the buffer is cut. */
#include "port.h"

#define LINE_MAX 120u

static char line[LINE_MAX + 2u]; /* the text, '\n', '\0' */
static uint8_t used;

static void put(char c)
{
    if (used < LINE_MAX) line[used++] = c;
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
    char reversed[10];
    unsigned n = 0;
    do {
        reversed[n++] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value);
    while (n) put(reversed[--n]);
}

void trace_end_line(void)
{
    line[used] = '\n';
    line[used + 1u] = '\0';
    semihosting_write_line(line);
    used = 0;
}
