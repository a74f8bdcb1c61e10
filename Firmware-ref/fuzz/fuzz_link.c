/* libFuzzer: frame decoding plus dispatch. The input is a script of host actions, so that the
 * fuzzer reaches the dispatcher with valid CRCs and the current epoch:
 *   0 n bytes..      raw bytes onto the line (anything: garbage, partial frames, delimiters)
 *   1 ch seq type n payload..   a well-formed frame (COBS, CRC-32C, current epoch) with that content;
 *                    seq < 0x80 means "the next one the board expects" on that channel
 *   2 ms             let ms milliseconds pass (the main loop polled once, after them: every tick
 *                    of them rendered); at most 3 of these an input (a later one ends it): the
 *                    ticks are most of an input's time, and three jumps reach the keep-alive, the
 *                    fade and resends. The catch-up skip (over 1,000 ticks due) is left to the C
 *                    tests' 5 s jumps: reaching it here rendered 1,001 ticks an input that found it,
 *                    and an eighth of the corpus kept one (+60 % ticks an input)
 * A HELLO opens a session first (fuzz_board.h: the session is in the started board's copy).
 * Invariants checked: the core never reads or writes out of bounds (ASan), no undefined behaviour
 * (UBSan), output levels within range, counts within their arrays. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_board.h"
#include "thr_frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint16_t epoch;
static uint8_t reliable_seq, realtime_seq;

/* A frame's bytes; the main loop runs whenever the receive ring is full, as a board's keeps up with
 * its UART, so that a frame longer than the ring arrives whole (op 0's raw bytes still overflow it). */
static void to_board(void *ctx, const uint8_t *data, uint32_t length)
{
    uint32_t i;
    (void)ctx;
    for (i = 0; i < length; i++) {
        if ((fuzz_core.link.ring_head + 1u) % THR_RX_RING == fuzz_core.link.ring_tail) thr_core_poll(&fuzz_core);
        thr_core_rx_byte(&fuzz_core, data[i]);
    }
}

/* A frame encoded by the core's own encoder. */
static void send_frame(uint8_t channel, uint8_t seq, uint8_t type, const uint8_t *payload, uint32_t n)
{
    uint8_t plain[8 + 300 + 4];
    thr_frame f;
    f.channel = channel & 3u;
    f.nak = 0;
    f.epoch = epoch;
    f.seq = seq;
    f.ack = 0;
    f.window = 4;
    f.type = type;
    f.payload = payload;
    f.length = (uint16_t)(n > 300u ? 300u : n);
    thr_frame_write(&f, plain, to_board, 0);
}

static void check_invariants(void)
{
    unsigned i;
    if (fuzz_core.active_count > THR_MAX_ACTIVE || fuzz_core.link.tx_count > THR_TX_SLOTS ||
        fuzz_core.link.tx_sent > fuzz_core.link.tx_count || fuzz_core.link.piece_length > THR_RX_PIECE)
        abort();
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        const thr_stored_timeline *t = &fuzz_core.timeline[i];
        if (t->state != THR_TL_FREE && (t->offset + t->size > fuzz_core.memory_size || t->received > t->size)) abort();
    }
}

/* A HELLO on the started board: it is in the board's copy, so every input begins with the session open. */
static void open_session(void)
{
    static const uint8_t hello[9] = { 1, 0, 0x00, 0x04, 8, 0x11, 0x22, 0x33, 0x44 };
    epoch = 0;
    send_frame(0, 0, 1, hello, sizeof hello);
    thr_core_poll(&fuzz_core);
    if (!fuzz_core.link.session) abort(); /* the handshake must work */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t i = 0;
    unsigned waits = 0;
    fuzz_board_init(open_session);
    epoch = fuzz_core.link.epoch;
    reliable_seq = realtime_seq = 0;
    while (i < size) {
        uint8_t op = data[i++] % 3u;
        if (op == 0u && i < size) {
            size_t n = data[i++], k;
            for (k = 0; k < n && i < size; k++) thr_core_rx_byte(&fuzz_core, data[i++]);
            thr_core_poll(&fuzz_core);
        } else if (op == 1u && i + 4u <= size) {
            uint8_t channel = data[i], seq = data[i + 1], type = data[i + 2];
            /* mostly the sequence number the board expects, so commands get dispatched */
            if (!(seq & 0x80u)) seq = (uint8_t)((channel & 3u) == 1u ? ++reliable_seq : ++realtime_seq);
            size_t n = data[i + 3];
            i += 4;
            if (n > size - i) n = size - i;
            send_frame(channel, seq, type, data + i, (uint32_t)n);
            i += n;
            thr_core_poll(&fuzz_core);
        } else if (op == 2u && i < size && waits++ < 3u) {
            /* the clock jumps and the core catches up tick by tick in one poll, as a board's main
             * loop does after a long wait (each tick rendered, the link polled once) */
            fuzz_clock += 1000u * data[i++];
            thr_core_poll(&fuzz_core);
        } else {
            break;
        }
        check_invariants();
    }
    return 0;
}
