/* The payload checker (Protocol/PROTOCOL.md §5.1): a message's payload against the field layout
 * of its type, from a schema table generated from messages.json (thr_messages.h). Pure; above the
 * byte helpers (UTF-8) only. Reasons are the THR_PL_* codes of thr_frame.h. */
#ifndef THR_MESSAGE_H
#define THR_MESSAGE_H

#include <stdint.h>

#include "thr_frame.h"

/* Checks a payload against a schema table (thr_messages.h). Returns 0 or a THR_PL_* reason;
 * *field and *offset say where. */
unsigned thr_msg_check(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length, uint8_t *field,
                       uint16_t *offset);

/* thr_msg_check that also decodes the first THR_MSG_MAX_FIELDS top-level fields into values[]:
 * fixed-size fields by value (little-endian; i16 sign-extended), strings, bytes and lists by the
 * offset where they start. */
#define THR_MSG_MAX_FIELDS 8u
unsigned thr_msg_decode(const uint8_t *schema, uint8_t type, const uint8_t *payload, uint16_t length, uint8_t *field,
                        uint16_t *offset, uint32_t *values);

#endif
