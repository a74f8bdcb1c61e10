/* QEMU: the trace's lines (trace_format.h), built in a buffer and sent whole, newline included, with
 * one semihosting call: a host reading the file never sees half a line for long, and each line costs
 * one trap rather than one per character. A line longer than the buffer is cut. */
#include "port.h"

#define LINE_MAX 120u

static char line[LINE_MAX + 2u]; /* the text, '\n', '\0' */
static uint8_t used;

void trace_put(char c)
{
    if (used < LINE_MAX) line[used++] = c;
}

void trace_end_line(void)
{
    line[used] = '\n';
    line[used + 1u] = '\0';
    semihosting_write_line(line);
    used = 0;
}
