#include "test_host.h"

#include <string.h>

#include "test.h"
#include "thr_bytes.h"
#include "thr_core.h"
#include "thr_wire.h"

void test_host_attach(test_host *host, stub_board *board)
{
    host->board = board;
    host->seq = host->ack = host->rt = 0;
    host->epoch = 0;
    host->tx_read = board->tx_count;
    thr_frame_rx_init(&host->rx, host->rx_buffer, sizeof host->rx_buffer, 1024);
    host->got_count = 0;
}

/* The host's line into the board: every byte through the receive interrupt's entry point. */
static void to_board(void *ctx, const uint8_t *data, uint32_t length)
{
    stub_board *board = ctx;
    uint32_t i;
    for (i = 0; i < length; i++) thr_core_rx_byte(&board->core, data[i]);
}

void test_host_send(test_host *host, uint8_t channel, uint8_t seq, uint8_t type, const uint8_t *payload,
                    uint16_t length, int nak)
{
    uint8_t plain[400];
    thr_frame f;
    f.channel = channel;
    f.nak = nak ? 1u : 0u;
    f.epoch = host->epoch;
    f.seq = seq;
    f.ack = host->ack;
    f.window = 8;
    f.type = type;
    f.payload = payload;
    f.length = length;
    thr_frame_write(&f, plain, to_board, host->board);
}

void test_host_collect(test_host *host)
{
    const stub_board *board = host->board;
    if (!board) return; /* not attached yet: nobody on the line */
    for (; host->tx_read < board->tx_count; host->tx_read++) {
        thr_frame f;
        if (thr_frame_rx_byte(&host->rx, board->tx[host->tx_read], &f) > 0 && host->got_count < TEST_HOST_FRAMES) {
            test_received *r = &host->got[host->got_count++];
            r->frame = f;
            memcpy(r->payload, f.payload, f.length < sizeof r->payload ? f.length : sizeof r->payload);
            r->frame.payload = r->payload;
            if (f.channel == 1u && f.seq == (uint8_t)(host->ack + 1u)) host->ack = f.seq;
        }
    }
}

const test_received *test_host_find(const test_host *host, uint8_t type)
{
    unsigned i;
    for (i = 0; i < host->got_count; i++) {
        if (host->got[i].frame.type == type) return &host->got[i];
    }
    return 0;
}

void test_host_hello(test_host *host, uint32_t nonce, uint8_t minor)
{
    uint8_t hello[9] = { 1, 0, 0x00, 0x04, 8, 0, 0, 0, 0 };
    hello[1] = minor;
    thr_put32(hello + 5, nonce);
    host->epoch = 0;
    test_host_send(host, 0, 0, THR_MSG_HELLO, hello, 9, 0);
}

const test_received *test_host_connected(test_host *host)
{
    const test_received *info = test_host_find(host, THR_MSG_INFO);
    CHECK(info != 0);
    if (!info) return 0;
    host->epoch = info->frame.epoch;
    return info;
}
