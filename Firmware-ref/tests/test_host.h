/* A host talking to a stub board over its line (the link and driver tests): frames sent through
 * the board's receive entry point, what the board wrote collected and decoded, its reliable
 * frames acknowledged, a message found by type. */
#ifndef THR_TEST_HOST_H
#define THR_TEST_HOST_H

#include <stdint.h>

#include "stub_board.h"
#include "thr_frame.h"

#define TEST_HOST_FRAMES 256u

typedef struct test_received {
    thr_frame frame; /* payload points at this record's copy */
    uint8_t payload[300];
} test_received;

typedef struct test_host {
    stub_board *board;
    uint8_t seq, ack, rt; /* the last reliable and realtime seq sent; the board's last reliable seq acknowledged */
    uint16_t epoch;       /* sent in every frame */
    uint32_t tx_read;     /* board->tx read up to here */
    thr_frame_rx rx;
    uint8_t rx_buffer[THR_FRAME_RX_CAPACITY(1024u)];
    test_received got[TEST_HOST_FRAMES]; /* what the board sent, since got_count was last set to 0 */
    unsigned got_count;
} test_host;

/* A new host on `board`'s line: it reads from what the board writes next; seqs, ack and epoch 0. */
void test_host_attach(test_host *host, stub_board *board);
/* A host frame, encoded by the core's own encoder (checked against the wire vectors). */
void test_host_send(test_host *host, uint8_t channel, uint8_t seq, uint8_t type, const uint8_t *payload,
                    uint16_t length, int nak);
/* Collects the frames the board wrote since the last call into got (the first TEST_HOST_FRAMES);
 * ack follows the board's reliable frames as they arrive in order. Nothing before test_host_attach. */
void test_host_collect(test_host *host);
/* The first frame of `type` in got, or 0. */
const test_received *test_host_find(const test_host *host, uint8_t type);
/* HELLO from a host of message set 1.`minor`, in epoch 0, with `nonce`. */
void test_host_hello(test_host *host, uint32_t nonce, uint8_t minor);
/* After the HELLO's reply was collected: the INFO (checked to be there, else 0), whose epoch the
 * host takes. */
const test_received *test_host_connected(test_host *host);

#endif
