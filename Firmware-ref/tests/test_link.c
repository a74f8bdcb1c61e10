/* The link: shared wire vectors (whole, byte by byte, split everywhere), then a scripted host
 * driving the board: handshake, epochs, upload, play, LATE, ERROR, realtime, retransmission,
 * NAK, keep-alive. */
#include <string.h>

#define THR_MESSAGES_ALL
#include "test_board.h"
#include "test.h"
#include "test_host.h"
#include "thr_frame.h"
#include "thr_link.h"
#include "thr_message.h"
#include "thr_messages.h"
#include "generated/wire_vectors.h"

/* ---------- vectors ---------- */

typedef struct outcome {
    wire_frame frames[8];
    unsigned frame_count;
    uint8_t reasons[8];
    unsigned reason_count;
} outcome;

static uint8_t big[THR_FRAME_RX_CAPACITY(1024u)];

static void feed(thr_frame_rx *rx, const uint8_t *bytes, uint32_t n, outcome *o)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        thr_frame f;
        int r = thr_frame_rx_byte(rx, bytes[i], &f);
        if (r > 0) {
            uint8_t field;
            uint16_t offset;
            unsigned reason = thr_msg_check(thr_msg_schema_all, f.type, f.payload, f.length, &field, &offset);
            if (reason) {
                if (o->reason_count < 8u) o->reasons[o->reason_count++] = (uint8_t)reason;
            } else if (o->frame_count < 8u) {
                wire_frame *w = &o->frames[o->frame_count++];
                w->channel = f.channel;
                w->nak = f.nak;
                w->epoch = f.epoch;
                w->seq = f.seq;
                w->ack = f.ack;
                w->window = f.window;
                w->type = f.type;
            }
        } else if (r < 0 && o->reason_count < 8u) {
            o->reasons[o->reason_count++] = (uint8_t)-r;
        }
    }
}

static int same(const outcome *o, const wire_vector *v)
{
    unsigned i;
    if (o->frame_count != v->frame_count || o->reason_count != v->reason_count) return 0;
    for (i = 0; i < o->frame_count; i++) {
        if (memcmp(&o->frames[i], &v->frames[i], sizeof o->frames[i]) != 0) return 0;
    }
    for (i = 0; i < o->reason_count; i++) {
        if (o->reasons[i] != v->reasons[i]) return 0;
    }
    return 1;
}

static void wire_vector_cases(void)
{
    unsigned i;
    uint32_t split;
    for (i = 0; i < WIRE_VECTOR_COUNT; i++) {
        const wire_vector *v = &wire_vectors[i];
        thr_frame_rx rx;
        outcome whole;
        memset(&whole, 0, sizeof whole);
        thr_frame_rx_init(&rx, big, (uint16_t)THR_FRAME_RX_CAPACITY(v->max_payload), v->max_payload);
        feed(&rx, v->bytes, v->length, &whole);
        if (!same(&whole, v)) {
            fprintf(stderr,
                    "wire vector %s: %u frames %u reasons (first %s), expected %u frames %u reasons (first %s)\n",
                    v->id, whole.frame_count, whole.reason_count, thr_reason_name(whole.reasons[0]), v->frame_count,
                    v->reason_count, thr_reason_name(v->reasons[0]));
        }
        CHECK(same(&whole, v));
        /* split in two at every position (byte by byte is the same receiver fed one byte at a time,
           which every split also does): the outcome does not depend on how bytes arrive */
        for (split = 0; split <= v->length && v->length < 600u; split++) {
            outcome parts;
            memset(&parts, 0, sizeof parts);
            thr_frame_rx_init(&rx, big, (uint16_t)THR_FRAME_RX_CAPACITY(v->max_payload), v->max_payload);
            feed(&rx, v->bytes, split, &parts);
            feed(&rx, v->bytes + split, v->length - split, &parts);
            CHECK(same(&parts, v));
        }
    }
}

/* Re-encoding every valid single-frame case gives its bytes back (§12). */
static uint8_t emitted[1100];
static uint32_t emitted_count;
static void collect(void *ctx, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    if (length <= sizeof emitted - emitted_count) {
        memcpy(emitted + emitted_count, data, length);
        emitted_count += length;
    }
}

static void wire_vector_reencode(void)
{
    unsigned i, checked = 0;
    static uint8_t plain[1100];
    for (i = 0; i < WIRE_VECTOR_COUNT; i++) {
        const wire_vector *v = &wire_vectors[i];
        thr_frame_rx rx;
        thr_frame f;
        uint32_t k;
        int got_frame = 0;
        if (v->frame_count != 1u || v->reason_count != 0u) continue;
        thr_frame_rx_init(&rx, big, (uint16_t)THR_FRAME_RX_CAPACITY(v->max_payload), v->max_payload);
        for (k = 0; k < v->length && !got_frame; k++) got_frame = thr_frame_rx_byte(&rx, v->bytes[k], &f) > 0;
        CHECK(got_frame);
        if (!got_frame) continue;
        emitted_count = 0;
        thr_frame_write(&f, plain, collect, 0);
        /* the case may omit the leading delimiter */
        if (v->bytes[0] == 0u) {
            CHECK(emitted_count == v->length && memcmp(emitted, v->bytes, v->length) == 0);
        } else {
            CHECK(emitted_count == v->length + 1u && memcmp(emitted + 1, v->bytes, v->length) == 0);
        }
        checked++;
    }
    CHECK(checked > 40u);
}

static void crc32c_check_value(void)
{
    CHECK_EQ(thr_crc32c_update(0, (const uint8_t *)"123456789", 9), 0xE3069283u);
}

/* ---------- a scripted host ---------- */

static stub_board board;
static test_host host; /* tests/test_host.h */

static void host_send(uint8_t channel, uint8_t seq, uint8_t type, const uint8_t *payload, uint16_t n, int nak)
{
    test_host_send(&host, channel, seq, type, payload, n, nak);
}

static void host_reliable(uint8_t type, const uint8_t *payload, uint16_t n)
{
    host_send(1, ++host.seq, type, payload, n, 0);
}

/* PLAYER_START at `at` (board time), position 0, laid out by the generated field offsets. */
static void host_player_start(uint16_t tag, uint8_t player, uint8_t handle, uint32_t at)
{
    uint8_t p[THR_PLAYER_START_SIZE];
    thr_put16(p + THR_PLAYER_START_TAG_AT, tag);
    p[THR_PLAYER_START_PLAYER_AT] = player;
    p[THR_PLAYER_START_HANDLE_AT] = handle;
    thr_put32(p + THR_PLAYER_START_AT_TIME_AT, at);
    thr_put32(p + THR_PLAYER_START_POSITION_AT, 0);
    host_reliable(THR_MSG_PLAYER_START, p, THR_PLAYER_START_SIZE);
}

/* Polls the board and collects what it wrote; acknowledges its reliable frames. */
static void exchange(void)
{
    thr_core_poll(&board.core);
    host.got_count = 0;
    test_host_collect(&host);
}

/* A host of message set 1.`minor` (1.0 knows no SACK). */
static void connect_host_minor(uint32_t nonce, uint8_t minor)
{
    test_host_hello(&host, nonce, minor);
    exchange();
    if (!test_host_connected(&host)) return;
    host.seq = host.ack = host.rt = 0;
}

static void connect_host(uint32_t nonce)
{
    connect_host_minor(nonce, 0);
}

static void setup_board(void)
{
    board_setup(&board);
    board.config.boot_epoch = 0x1234;
    stub_board_start(&board);
    test_host_attach(&host, &board);
}

static void handshake_and_epochs(void)
{
    const test_received *info;
    uint8_t field;
    uint16_t offset;
    uint16_t first;
    setup_board();
    connect_host(0xA1B2C3D4u);
    info = test_host_find(&host, THR_MSG_INFO);
    if (!info) return;
    CHECK_EQ(thr_msg_check(thr_msg_schema_all, THR_MSG_INFO, info->frame.payload, info->frame.length, &field, &offset),
             0);
    CHECK_EQ(thr_get32(info->payload), 0xA1B2C3D4u);
    CHECK_EQ(info->frame.epoch, 0x1235);
    first = host.epoch;
    /* a repeated HELLO with the same nonce repeats INFO in the same epoch */
    connect_host(0xA1B2C3D4u);
    CHECK_EQ(host.epoch, first);
    /* a new nonce opens a new session: the epoch advances */
    connect_host(7);
    CHECK_EQ(host.epoch, (uint16_t)(first + 1u));
    /* a frame of another epoch is answered with an ACK carrying the current one */
    host.epoch = first;
    host_reliable(THR_MSG_ENGINE_START, (const uint8_t *)"\x01\x00", 2);
    exchange();
    CHECK(test_host_find(&host, THR_MSG_ACK) != 0);
    CHECK(test_host_find(&host, THR_MSG_RESULT) == 0);
    if (test_host_find(&host, THR_MSG_ACK))
        CHECK_EQ(test_host_find(&host, THR_MSG_ACK)->frame.epoch, (uint16_t)(first + 1u));
}

/* A timeline: one transient (0.8, 0.3) at 100 ms. */
static uint8_t tl[64];
static uint32_t tl_length;

static void upload_and_play(void)
{
    static const uint8_t body[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    uint8_t p[64];
    const test_received *r;
    uint32_t hash;
    uint8_t handle;
    setup_board();
    connect_host(1);
    tl_length = make_timeline(tl, 0, body, sizeof body);
    hash = thr_crc32c_update(0, tl, tl_length);
    /* begin */
    p[0] = 1;
    p[1] = 0;
    thr_put32(p + 2, tl_length);
    thr_put32(p + 6, hash);
    host_reliable(THR_MSG_UPLOAD_BEGIN, p, 10);
    exchange();
    r = test_host_find(&host, THR_MSG_UPLOAD_STATUS);
    CHECK(r != 0);
    if (!r) return;
    CHECK_EQ(r->payload[2], THR_STATUS_OK);
    handle = r->payload[3];
    CHECK_EQ(thr_get32(r->payload + 4), 0);
    /* first 5 bytes, then a chunk overlapping them (harmless), then the rest */
    p[0] = 2;
    p[1] = 0;
    p[2] = handle;
    thr_put32(p + 3, 0);
    memcpy(p + 7, tl, 5);
    host_reliable(THR_MSG_UPLOAD_CHUNK, p, 12);
    exchange();
    r = test_host_find(&host, THR_MSG_UPLOAD_STATUS);
    CHECK(r && thr_get32(r->payload + 4) == 5u);
    /* commit too early: incomplete */
    p[0] = 3;
    p[1] = 0;
    p[2] = handle;
    host_reliable(THR_MSG_UPLOAD_COMMIT, p, 3);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_INCOMPLETE);
    /* resume: the same BEGIN gives the same handle and where to continue */
    p[0] = 4;
    p[1] = 0;
    thr_put32(p + 2, tl_length);
    thr_put32(p + 6, hash);
    host_reliable(THR_MSG_UPLOAD_BEGIN, p, 10);
    exchange();
    r = test_host_find(&host, THR_MSG_UPLOAD_STATUS);
    CHECK(r && r->payload[3] == handle && thr_get32(r->payload + 4) == 5u);
    p[0] = 5;
    p[1] = 0;
    p[2] = handle;
    thr_put32(p + 3, 3);
    memcpy(p + 7, tl + 3, tl_length - 3u);
    host_reliable(THR_MSG_UPLOAD_CHUNK, p, (uint16_t)(7u + tl_length - 3u));
    exchange();
    r = test_host_find(&host, THR_MSG_UPLOAD_STATUS);
    CHECK(r && thr_get32(r->payload + 4) == tl_length);
    p[0] = 6;
    p[1] = 0;
    p[2] = handle;
    host_reliable(THR_MSG_UPLOAD_COMMIT, p, 3);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    /* play at board time 50 ms: the transient sounds at 150 ms */
    host_player_start(7, 0, handle, 50000);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    CHECK(test_host_find(&host, THR_MSG_LATE) == 0);
    {
        uint32_t ms;
        for (ms = 0; ms < 200u; ms++) {
            board.clock_us += 1000u;
            if (ms % 50u == 0u)
                host_send(0, 0, THR_MSG_PING,
                          (const uint8_t *)"\x01\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00", 14, 0);
            exchange();
            if (test_host_find(&host, THR_MSG_PLAYER_FINISHED)) break;
        }
    }
    CHECK_EQ(trace_intensity_at(&board, 150), 26214);
    CHECK_EQ(trace_intensity_at(&board, 149), 0);
    CHECK(test_host_find(&host, THR_MSG_PLAYER_FINISHED) != 0 || board.core.player[0].state == THR_PLAYER_IDLE);
    /* a command whose time has passed runs at once and is reported late */
    host_player_start(8, 0, handle, 1000);
    exchange();
    r = test_host_find(&host, THR_MSG_LATE);
    CHECK(r != 0);
    if (r) {
        CHECK(thr_get32(r->payload + 3) > 100000u);
        CHECK_EQ(r->payload[0], 8); /* the command's tag */
        CHECK_EQ(r->payload[2], THR_MSG_PLAYER_START);
        CHECK(test_host_find(&host, THR_MSG_RESULT) < r); /* the reply comes first, LATE follows */
    }
    /* a hash that does not match is refused at commit */
    p[0] = 9;
    p[1] = 0;
    thr_put32(p + 2, tl_length);
    thr_put32(p + 6, hash ^ 1u);
    host_reliable(THR_MSG_UPLOAD_BEGIN, p, 10);
    exchange();
    r = test_host_find(&host, THR_MSG_UPLOAD_STATUS);
    if (r) {
        uint8_t h2 = r->payload[3];
        p[0] = 10;
        p[1] = 0;
        p[2] = h2;
        thr_put32(p + 3, 0);
        memcpy(p + 7, tl, tl_length);
        host_reliable(THR_MSG_UPLOAD_CHUNK, p, (uint16_t)(7u + tl_length));
        exchange();
        p[0] = 11;
        p[1] = 0;
        p[2] = h2;
        host_reliable(THR_MSG_UPLOAD_COMMIT, p, 3);
        exchange();
        r = test_host_find(&host, THR_MSG_RESULT);
        CHECK(r && r->payload[2] == THR_STATUS_HASH_MISMATCH);
    }
}

static void errors_and_realtime(void)
{
    uint8_t p[16];
    const test_received *r;
    setup_board();
    connect_host(2);
    /* PLAYER_MUTE with muted = 2: ERROR(malformed) on the reliable channel, frame still acknowledged */
    p[0] = 1;
    p[1] = 0;
    p[2] = 0;
    p[3] = 2;
    host_reliable(THR_MSG_PLAYER_MUTE, p, 4);
    exchange();
    r = test_host_find(&host, THR_MSG_ERROR);
    CHECK(r != 0);
    if (r) {
        CHECK_EQ(r->frame.channel, 1);
        CHECK_EQ(r->payload[0], THR_STATUS_MALFORMED);
        CHECK_EQ(r->payload[1], THR_MSG_PLAYER_MUTE);
        CHECK_EQ(r->frame.ack, host.seq);
        CHECK(r->payload[3] == 30u && memcmp(r->payload + 4, "invalid_bool field 2 at byte 3", 30) == 0);
    }
    /* an unknown type on the control channel: ERROR(unknown_message) on control */
    host_send(0, 0, 0xEE, p, 2, 0);
    exchange();
    r = test_host_find(&host, THR_MSG_ERROR);
    CHECK(r && r->frame.channel == 0u && r->payload[0] == THR_STATUS_UNKNOWN_MESSAGE);
    /* a board-to-host message sent to the board is not accepted in that direction */
    p[0] = 3;
    p[1] = 0;
    p[2] = 0;
    host_reliable(THR_MSG_RESULT, p, 3);
    exchange();
    r = test_host_find(&host, THR_MSG_ERROR);
    CHECK(r && r->payload[0] == THR_STATUS_UNKNOWN_MESSAGE);
    /* realtime: a malformed frame gets no answer; newest wins */
    host_send(2, ++host.rt, THR_MSG_RT_PARAM, p, 1, 0);
    exchange();
    CHECK(test_host_find(&host, THR_MSG_ERROR) == 0);
    /* RT_PARAM intensity 0.5 on player 0 */
    p[0] = 0;
    p[1] = 0;
    p[2] = 0x00;
    p[3] = 0x20;
    host_send(2, ++host.rt, THR_MSG_RT_PARAM, p, 4, 0);
    exchange();
    thr_core_tick(&board.core); /* players evaluate the run-time layer only while playing: read the stored step */
    CHECK_EQ(board.core.player[0].rt.pending_n, 1);
    /* a stale realtime frame (same seq) is dropped */
    p[3] = 0x10;
    host_send(2, host.rt, THR_MSG_RT_PARAM, p, 4, 0);
    exchange();
    CHECK_EQ(board.core.player[0].rt.pending_n, 1);
    CHECK_EQ(board.core.player[0].rt.pending[0].value, 16384);
    /* STREAM_SAMPLES: 3 samples every 1 ms from now, then the output fades instead of holding */
    {
        uint8_t s[14] = { 0, 0, 0, 0, 0, 0xE8, 0x03, 3, 255, 0, 255, 0, 255, 0 };
        uint32_t now = (uint32_t)board.core.now + 2000u;
        thr_put32(s + 1, now);
        board.trace_count = 0;
        host_send(2, ++host.rt, THR_MSG_STREAM_SAMPLES, s, 14, 0);
        exchange();
        board_run_ms(&board, 80);
        CHECK_EQ(trace_intensity_at(&board, now / 1000u), 32768);
        CHECK_EQ(trace_intensity_at(&board, now / 1000u + 2u), 32768);
        CHECK_EQ(trace_intensity_at(&board, now / 1000u + 4u), 0); /* faded within one tick of running out */
        CHECK_EQ(board.core.stream[0].active, 0);
    }
}

/* STREAM_SAMPLES with at_time 0 plays "now" (PROTOCOL.md §1): from the tick after the frame is
 * handled, not from board time 0 (which, long past, would have played the whole block out). */
static void stream_samples_now(void)
{
    uint8_t s[14] = { 0, 0, 0, 0, 0, 0xE8, 0x03, 3, 200, 0, 200, 0, 200, 0 };
    uint32_t now_ms;
    setup_board();
    connect_host(7);
    board_run_ms(&board, 200); /* board time 0 is long past */
    now_ms = (uint32_t)board.core.now / 1000u;
    board.trace_count = 0;
    host_send(2, ++host.rt, THR_MSG_STREAM_SAMPLES, s, 14, 0);
    exchange();
    CHECK_EQ(board.core.stream[0].at, board.core.now);
    board_run_ms(&board, 10);
    CHECK(trace_intensity_at(&board, now_ms + 1u) > 0);
    CHECK(trace_intensity_at(&board, now_ms + 2u) > 0);
    CHECK_EQ(trace_intensity_at(&board, now_ms + 8u), 0);
    CHECK_EQ(board.core.stream[0].active, 0);
}

static void retransmission_and_nak(void)
{
    uint8_t p[4] = { 1, 0, 0, 0 };
    const test_received *r;
    uint8_t seq;
    setup_board();
    connect_host(3);
    host_reliable(THR_MSG_ENGINE_START, p, 2);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r != 0);
    if (!r) return;
    seq = r->frame.seq;
    /* the host does not acknowledge (its ack stays behind): after the RTO the board resends */
    host.ack = (uint8_t)(seq - 1u);
    board.clock_us += 600000u;
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->frame.seq == seq);
    CHECK(board.core.link.retransmissions >= 1u);
    /* a timeout resends the oldest frame only; with the host heard from since, RTO is not doubled */
    CHECK_EQ(board.core.link.in_recovery, 1);
    /* a NAK with the ack before it asks for everything in flight again */
    host.ack = (uint8_t)(seq - 1u);
    host_send(0, 0, THR_MSG_ACK, p, 0, 1);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->frame.seq == seq);
    /* acknowledged: nothing more */
    host.ack = seq;
    host_send(0, 0, THR_MSG_ACK, p, 0, 0);
    exchange();
    CHECK_EQ(board.core.link.tx_count, 0);
    /* a reliable frame ahead of a gap: dropped, and the board's next frame carries a NAK */
    host.seq++;
    host_reliable(THR_MSG_ENGINE_START, p, 2);
    exchange();
    CHECK(host.got_count >= 1u && host.got[0].frame.nak == 1u);
    CHECK(test_host_find(&host, THR_MSG_RESULT) == 0);
}

/* §6.1: a timeout resends the oldest frame only; the first progress after it, if it answers the
 * resend, brings the rest of the window again. */
static void timeout_recovery(void)
{
    uint8_t p[4] = { 1, 0, 0, 0 };
    uint8_t first;
    setup_board();
    connect_host(5);
    host_reliable(THR_MSG_ENGINE_START, p, 2);
    p[0] = 2;
    host_reliable(THR_MSG_ENGINE_START, p, 2);
    exchange();
    CHECK_EQ(host.got_count >= 2u, 1);
    CHECK_EQ(board.core.link.tx_sent, 2);
    first = (uint8_t)(board.core.link.next_seq - 2u);
    host.ack = (uint8_t)(first - 1u); /* the host lost both */
    board.clock_us += 600000u;
    exchange();
    CHECK_EQ(host.got_count, 1);
    if (host.got_count) CHECK_EQ(host.got[0].frame.seq, first);
    /* the resend arrives; the host acknowledges it: the board sends the second again */
    host.ack = first;
    board.clock_us += 20000u;
    host_send(0, 0, THR_MSG_ACK, p, 0, 0);
    exchange();
    CHECK(host.got_count >= 1u && host.got[0].frame.seq == (uint8_t)(first + 1u));
    CHECK_EQ(board.core.link.in_recovery, 0);
}

static void engine_stop_start(void)
{
    static const uint8_t body[] = { 0xD0, 0x0F, 0x01, 0x0D, 0xFF, 0x80, 0x00, 0x00, 0xD0, 0x0F }; /* 2 s continuous */
    uint8_t p[16], handle;
    uint32_t length, ms;
    const test_received *r;
    int stopped = 0;
    setup_board();
    connect_host(6);
    length = make_timeline(tl, 0, body, sizeof body);
    CHECK_EQ(thr_store_load(&board.core, tl, length, &handle), THR_STATUS_OK);
    host_player_start(1, 0, handle, (uint32_t)board.core.now + 1000u);
    exchange();
    board.clock_us += 20000u;
    exchange();
    /* ENGINE_STOP: answered at once, output fades over fade_ms, then ENGINE_STOPPED(host_request) */
    p[0] = 2;
    p[1] = 0;
    host_reliable(THR_MSG_ENGINE_STOP, p, 2);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    board.trace_count = 0;
    for (ms = 0; ms < 80u && !stopped; ms++) {
        board.clock_us += 1000u;
        exchange();
        r = test_host_find(&host, THR_MSG_ENGINE_STOPPED);
        if (r) {
            stopped = 1;
            CHECK_EQ(r->payload[0], THR_STOP_REASON_HOST_REQUEST);
        }
    }
    CHECK(stopped);
    CHECK(board.trace_count > 10u &&
          board.trace[0].intensity_q15 > board.trace[10].intensity_q15); /* a fade, not a cut */
    /* stopped: players refuse to start until ENGINE_START */
    host_player_start(3, 0, handle, (uint32_t)board.core.now + 1000u);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_ENGINE_STOPPED);
    p[0] = 4;
    p[1] = 0;
    host_reliable(THR_MSG_ENGINE_START, p, 2);
    exchange();
    host_player_start(5, 0, handle, (uint32_t)board.core.now + 1000u);
    exchange();
    r = test_host_find(&host, THR_MSG_RESULT);
    CHECK(r && r->payload[2] == THR_STATUS_OK);
    /* a chunk beyond the next expected offset stores nothing and says where to continue */
    CHECK_EQ(thr_store_begin(&board.core, 100, 0x1234, &handle), THR_STATUS_OK);
    CHECK_EQ(thr_store_chunk(&board.core, handle, 50, tl, 10), THR_STATUS_OK);
    CHECK_EQ(board.core.timeline[handle].received, 0);
    CHECK_EQ(thr_store_chunk(&board.core, handle, 95, tl, 10), THR_STATUS_BAD_ARGUMENT); /* past the size */
}

static void keepalive_fade(void)
{
    static const uint8_t body[] = { 0xD0, 0x0F, 0x01, 0x0D, 0xFF, 0x80, 0x00, 0x00, 0xD0, 0x0F }; /* 2 s continuous */
    uint8_t handle;
    uint32_t length, ms, faded_at = 0;
    setup_board();
    connect_host(4);
    length = make_timeline(tl, 0, body, sizeof body);
    CHECK_EQ(thr_store_load(&board.core, tl, length, &handle), THR_STATUS_OK);
    host_player_start(1, 0, handle, (uint32_t)board.core.now + 1000u);
    exchange();
    board.trace_count = 0;
    /* the host goes silent: keepalive 500 ms, then a 50 ms fade to zero, FAULT and ENGINE_STOPPED */
    for (ms = 0; ms < 700u; ms++) {
        board.clock_us += 1000u;
        thr_core_poll(&board.core);
        if (!faded_at && board.trace_count && board.trace[board.trace_count - 1u].intensity_q15 == 0u && ms > 10u)
            faded_at = ms;
    }
    CHECK(faded_at >= 500u && faded_at <= 560u);
    CHECK_EQ(board.core.player[0].state, THR_PLAYER_IDLE);
    exchange();
    CHECK(test_host_find(&host, THR_MSG_FAULT) != 0);
    CHECK(test_host_find(&host, THR_MSG_ENGINE_STOPPED) != 0);
}

/* A PLAYER_FINISHED that finds the send queue full is kept and goes out once the host has
 * acknowledged room, never dropped; a command at time 0 ("now") is never late. */
static void finished_waits_for_room(void)
{
    static const uint8_t body[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    uint8_t p[12], handle;
    unsigned i, seen[2] = { 0, 0 };
    setup_board();
    connect_host(1);
    tl_length = make_timeline(tl, 0, body, sizeof body);
    CHECK_EQ(thr_store_load(&board.core, tl, tl_length, &handle), THR_STATUS_OK);
    board_run_ms(&board, 5); /* board time 5 ms: "0" must still mean now, not 5 ms late */
    for (i = 0; i < 2u; i++) {
        host_player_start((uint8_t)(20u + i), (uint8_t)i, handle, 0);
    }
    /* one more command: three replies wait unacknowledged, one send slot is left */
    p[0] = 22;
    p[1] = 0;
    p[2] = 2;
    p[3] = 0;
    host_reliable(THR_MSG_PLAYER_MUTE, p, 4);
    exchange();
    CHECK(test_host_find(&host, THR_MSG_LATE) == 0);
    CHECK_EQ(board.core.link.tx_count, 3u);
    board_run_ms(&board, 200); /* both players finish: one notification fits */
    exchange();
    for (i = 0; i < host.got_count; i++) {
        if (host.got[i].frame.type == THR_MSG_PLAYER_FINISHED && host.got[i].payload[0] < 2u)
            seen[host.got[i].payload[0]]++;
    }
    CHECK(seen[0] + seen[1] >= 1u && (seen[0] == 0u || seen[1] == 0u));
    host_send(0, 0, THR_MSG_ACK, p, 0, 0); /* the host acknowledges everything */
    board_run_ms(&board, 2);
    exchange();
    for (i = 0; i < host.got_count; i++) {
        if (host.got[i].frame.type == THR_MSG_PLAYER_FINISHED && host.got[i].payload[0] < 2u)
            seen[host.got[i].payload[0]]++;
    }
    CHECK(seen[0] >= 1u && seen[1] >= 1u);
    CHECK_EQ(board.core.link.dropped_notifications, 0u);
}

/* A new host session starts with the memory empty: what the last host left loaded or playing is
 * gone (PROTOCOL.md §4.1), so repeated host runs cannot fill the board with timelines nobody names. */
static void new_session_clears_the_store(void)
{
    static const uint8_t body[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    thr_core *core = &board.core;
    uint8_t handle = 0, again = 0, i;
    setup_board();
    connect_host(1);
    tl_length = make_timeline(tl, 0, body, sizeof body);
    CHECK_EQ(thr_store_load(core, tl, tl_length, &handle), THR_STATUS_OK);
    CHECK_EQ(thr_player_start(core, 0, handle, 0, 0), THR_STATUS_OK);
    board_run_ms(&board, 2);
    CHECK(core->player[0].state != THR_PLAYER_IDLE);
    connect_host(1); /* the same host repeating its HELLO keeps everything */
    CHECK(core->player[0].state != THR_PLAYER_IDLE);
    CHECK_EQ(core->timeline[handle].state, THR_TL_READY);
    /* The last host's ENGINE_STOP, read in the same poll as another host's HELLO: its fade and its
     * ENGINE_STOPPED belong to no one any more, and the new host's engine runs on. */
    host_reliable(THR_MSG_ENGINE_STOP, (const uint8_t *)"\x09\x00", 2);
    connect_host(2);
    board_run_ms(&board, 200);
    host.got_count = 0;
    test_host_collect(&host);
    CHECK(test_host_find(&host, THR_MSG_ENGINE_STOPPED) == 0);
    CHECK_EQ(core->engine_running, 1);
    CHECK_EQ(core->player[0].state, THR_PLAYER_IDLE);
    for (i = 0; i < THR_MAX_TIMELINES; i++) CHECK_EQ(core->timeline[i].state, THR_TL_FREE);
    CHECK_EQ(thr_store_load(core, tl, tl_length, &again), THR_STATUS_OK);
    CHECK_EQ(core->timeline[again].offset, 0u);
}

/* The tags of the RESULTs in the last exchange, in order (at most 8). */
static unsigned result_tags(uint16_t *tags)
{
    unsigned i, n = 0;
    for (i = 0; i < host.got_count && n < 8u; i++) {
        if (host.got[i].frame.type == THR_MSG_RESULT) tags[n++] = (uint16_t)thr_get16(host.got[i].payload);
    }
    return n;
}

static void engine_start_seq(uint8_t seq, uint16_t tag)
{
    uint8_t p[2];
    thr_put16(p, tag);
    host_send(THR_CHANNEL_RELIABLE, seq, THR_MSG_ENGINE_START, p, 2, 0);
}

/* §6.3: a reliable frame after a gap. With THR_RX_HOLD_FRAMES the board holds it, names it in SACK to a
 * 1.1 host (an ACK with NAK to a 1.0 host) and executes it once the gap fills; without, it drops it and
 * NAKs, and never sends SACK. Either way a SACK from the host is taken as an ACK, never answered. */
static void selective_ack(void)
{
    uint8_t minor;
    for (minor = 0; minor <= 1u; minor++) {
        uint16_t tags[8];
        const test_received *r;
        uint8_t nothing[1] = { 0 };
        setup_board();
        connect_host_minor(11u + minor, minor);
        engine_start_seq(1, 101);
        exchange();
        CHECK_EQ(result_tags(tags), 1);
        engine_start_seq(3, 103); /* 2 lost */
        exchange();
        CHECK_EQ(result_tags(tags), 0);
        r = test_host_find(&host, THR_MSG_SACK);
        if (THR_RX_HOLD_FRAMES && minor >= 1u) {
            CHECK(r != 0);
            CHECK(test_host_find(&host, THR_MSG_ACK) == 0);
            if (r) {
                CHECK_EQ(r->frame.ack, 1);
                CHECK_EQ(r->frame.nak, 1);
                CHECK_EQ(r->frame.length, 1);
                CHECK_EQ(r->payload[0], 0x01); /* bit 0: frame ack + 2 = 3 */
            }
        } else {
            CHECK(r == 0);
            r = test_host_find(&host, THR_MSG_ACK);
            CHECK(r && r->frame.ack == 1u && r->frame.nak == 1u);
        }
        engine_start_seq(2, 102); /* the gap fills */
        exchange();
        CHECK(test_host_find(&host, THR_MSG_SACK) == 0);
        if (THR_RX_HOLD_FRAMES) {
            CHECK_EQ(result_tags(tags), 2);
            CHECK(tags[0] == 102u && tags[1] == 103u);
            CHECK_EQ(board.core.link.last_accepted, 3);
        } else {
            CHECK_EQ(result_tags(tags), 1);
            CHECK_EQ(tags[0], 102);
            CHECK_EQ(board.core.link.last_accepted, 2);
        }
        /* the host's SACK is an acknowledgement like ACK: no ERROR, nothing dispatched */
        host_send(THR_CHANNEL_CONTROL, 0, THR_MSG_SACK, nothing, 1, 0);
        exchange();
        CHECK(test_host_find(&host, THR_MSG_ERROR) == 0);
        CHECK_EQ(board.core.link.undecodable, 0);
        CHECK(thr_link_window(&board.core) <= (THR_RX_HOLD_FRAMES ? THR_RX_HOLD_FRAMES + 1u : THR_TX_SLOTS - 1u));
    }
}

#if THR_RX_HOLD_FRAMES
/* §6.1 on the board's side: a 1.1 host that holds the board's frames names them in SACK; the board
 * resends only the frames missing below a held one, and ignores NAK flags from then on. */
static void selective_resend(void)
{
    uint8_t held[1] = { 0x01 }, first;
    setup_board();
    connect_host_minor(21, 1);
    engine_start_seq(1, 201);
    engine_start_seq(2, 202);
    exchange();
    CHECK_EQ(board.core.link.tx_sent, 2);
    first = (uint8_t)(board.core.link.next_seq - 2u);
    host.ack = (uint8_t)(first - 1u); /* the first reply lost, the second held: SACK bit 0 = ack + 2 */
    board.clock_us += 5000u;
    host_send(THR_CHANNEL_CONTROL, 0, THR_MSG_SACK, held, 1, 1);
    exchange();
    CHECK_EQ(host.got_count, 1);
    if (host.got_count) CHECK_EQ(host.got[0].frame.seq, first);
    CHECK_EQ(board.core.link.peer_holds, 1);
    CHECK_EQ(board.core.buffers.tx[1].held, 1);
    /* the resend lost too: a NAK from a host that holds frames resends nothing; the timer resends the
     * oldest only */
    host.ack = (uint8_t)(first - 1u);
    board.clock_us += 1000u;
    host_send(THR_CHANNEL_CONTROL, 0, THR_MSG_ACK, held, 0, 1);
    exchange();
    CHECK_EQ(host.got_count, 0);
    board.clock_us += 5000000u;
    exchange();
    CHECK_EQ(host.got_count, 1);
    if (host.got_count) CHECK_EQ(host.got[0].frame.seq, first);
    /* the resend arrives: the ack covers both, nothing more is sent */
    host.ack = (uint8_t)(first + 1u);
    host_send(THR_CHANNEL_CONTROL, 0, THR_MSG_ACK, held, 0, 0);
    exchange();
    CHECK_EQ(board.core.link.tx_count, 0);
    CHECK_EQ(host.got_count, 0);
}
#endif

void link_tests(void)
{
    run_test("crc32c", crc32c_check_value);
    run_test("wire vectors", wire_vector_cases);
    run_test("wire vectors re-encoded", wire_vector_reencode);
    run_test("handshake and epochs", handshake_and_epochs);
    run_test("a new session clears the store", new_session_clears_the_store);
    run_test("upload and play", upload_and_play);
    run_test("errors and realtime", errors_and_realtime);
    run_test("stream samples at time 0 play now", stream_samples_now);
    run_test("retransmission and nak", retransmission_and_nak);
    run_test("timeout recovery", timeout_recovery);
    run_test("selective ack", selective_ack);
#if THR_RX_HOLD_FRAMES
    run_test("selective resend", selective_resend);
#endif
    run_test("engine stop and start", engine_stop_start);
    run_test("keepalive fade", keepalive_fade);
    run_test("finished waits for room", finished_waits_for_room);
}
