/* QEMU builds: the text of the trace lines (`i2c 5a 02 7f`, `boot epoch 1`), shared by the ports.
 * Each port provides trace_put (one character to wherever its trace goes: a UART, a line buffer) and
 * trace_end_line; these format through it. */
#ifndef THRUM_PORTS_TRACE_FORMAT_H
#define THRUM_PORTS_TRACE_FORMAT_H

#include <stdint.h>

void trace_put(char c);    /* the port's */
void trace_end_line(void); /* the port's: '\n', and the line is sent */
void trace_text(const char *text);
void trace_hex2(uint8_t value);     /* two lowercase hex digits */
void trace_decimal(uint32_t value); /* no leading zeros */

#endif
