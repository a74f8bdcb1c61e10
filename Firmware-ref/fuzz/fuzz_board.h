/* The fuzzers' board: the stub board (board/stub_board.h, built with a 16 KB flash and 4 KB of
 * timeline memory, see the Makefile) with two channels, an LRA and an ERM, two slots, a trigger
 * input and short keep-alive and fade; no trace (it would only cost time). */
#ifndef THR_FUZZ_BOARD_H
#define THR_FUZZ_BOARD_H

#include <string.h>

#include "stub_board.h"
#include "thr_bytes.h"

static stub_board fuzz_board;
#define fuzz_core  (fuzz_board.core)
#define fuzz_clock (fuzz_board.clock_us)

/* The board as it is right after it started: after the first inputs, every input starts from a copy
 * of it (one memcpy) rather than from stub_board_init's byte loops and thr_core_init. The same
 * state: the start depends only on the configuration below and on the erased flash, and the board
 * and the core hold pointers only into fuzz_board itself, whose address does not change. The first
 * inputs start it for real, so that the start's code counts as covered (libFuzzer does not count
 * its first, empty run). */
#define FUZZ_REAL_STARTS 16
static stub_board fuzz_board_started;
static unsigned fuzz_board_starts;

static void fuzz_board_init(void)
{
    thr_board_config *c = &fuzz_board.config;
    if (fuzz_board_starts == FUZZ_REAL_STARTS) {
        memcpy(&fuzz_board, &fuzz_board_started, sizeof fuzz_board);
        return;
    }
    stub_board_init(&fuzz_board);
    fuzz_board.hal.trace = 0;
    c->firmware = c->board = c->serial = 0;
    c->channel_count = 2;
    c->channels[0].kind = THR_ACTUATOR_KIND_LRA;
    c->channels[0].rated_mv = 2000;
    c->channels[0].max_mv = 3000;
    c->channels[0].resonant_dhz = 1700;
    c->channels[1].kind = THR_ACTUATOR_KIND_ERM;
    c->channels[1].rated_mv = 3000;
    c->channels[1].max_mv = 3300;
    c->channels[1].name = "thumb"; /* CHANNEL_READ: a name and none */
    c->slot_count = 2;
    c->slot_size = 2048;
    c->keepalive_ms = 200;
    c->fade_ms = 20;
    c->trigger_inputs = 1;
    c->boot_epoch = 77;
    stub_board_start(&fuzz_board);
    if (++fuzz_board_starts == FUZZ_REAL_STARTS) memcpy(&fuzz_board_started, &fuzz_board, sizeof fuzz_board);
}

#endif
