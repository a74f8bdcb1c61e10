/* The board's end of the link (Protocol/PROTOCOL.md §3-8), in three parts that share the link
 * state in thr_core.link:
 *   thr_link_session.c   receive ring, HELLO/INFO and epochs, which frames are accepted; the poll
 *   thr_link_reliable.c  acknowledgements, round-trip estimate, timeouts and resends (§6)
 *   thr_link_dispatch.c  what each accepted command does, and its reply
 * over thr_link_send.c, which writes control frames and queues reliable ones. Internal to the core. */
#ifndef THR_LINK_H
#define THR_LINK_H

#include "thr_frame.h"
#include "thr_internal.h"

#define THR_RTO_INITIAL 500000u /* us, before the first round-trip sample (§6.2) */

/* thr_link_send.c */
/* The window we state: free send slots minus one, so every command we accept has room for its
 * reply and one notification. */
uint8_t thr_link_window(const thr_core *core);
/* Control frames (INFO, PONG, ACK, control ERROR) go out at once and are not kept. */
void thr_link_send_control(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length);
/* Queues a reliable message; refuses loudly (counted, 0) when the send ring is full. */
int thr_link_send_reliable(thr_core *core, uint8_t type, const uint8_t *payload, uint16_t length);
/* (Re)sends one queued reliable frame with the current acknowledgement and window. */
void thr_link_transmit(thr_core *core, thr_tx_entry *e);
/* Sends what the peer's window allows, then a bare ACK if one is still owed. */
void thr_link_flush(thr_core *core);
/* A str field's text: at most `max` bytes of a NUL-terminated text (NULL: none); returns how many. */
uint8_t thr_link_put_text(uint8_t *text, const char *s, uint8_t max);

/* thr_link_reliable.c */
/* The acknowledgement (and NAK) a valid frame of the session carries. */
void thr_link_on_ack(thr_core *core, const thr_frame *f);
/* Resends the oldest frame when its timeout has passed; ends the session after too many tries. */
void thr_link_check_timeout(thr_core *core);

/* thr_link_dispatch.c: executes one accepted, checked command; v holds its decoded fields. */
void thr_link_dispatch(thr_core *core, const thr_frame *f, const uint32_t *v);

#endif
