#include "flash_sweep.h"

#include <string.h>

#include "test.h"
#include "test_board.h"
#include "thr_flash.h"

void flash_timelines_make(flash_timelines *t)
{
    static const uint8_t body_a[] = { 0x64, 0x01, 0x04, 0xCC, 0x4D, 0x00, 0x64 };
    uint8_t body[700];
    uint32_t n = 0, i;
    t->len_a = make_timeline(t->a, 0, body_a, sizeof body_a);
    body[n++] = 0xAB;
    body[n++] = 0x02; /* duration 299 = AB 02 */
    body[n++] = 0x01;
    body[n++] = 0x04;
    body[n++] = 0xFF;
    body[n++] = 0x10;
    for (i = 0; i < 300u; i++) {
        body[n++] = 0x00;
        body[n++] = i ? 0x01 : 0x00;
    }
    t->len_b = make_timeline(t->b, 0, body, n);
}

void flash_state_capture(const thr_core *core, unsigned slots, flash_state *s)
{
    unsigned i;
    memset(s, 0, sizeof *s);
    for (i = 0; i < slots; i++) {
        s->used[i] = core->flash.slot[i].used;
        s->size[i] = s->used[i] ? core->flash.slot[i].size : 0u;
        s->hash[i] = s->used[i] ? core->flash.slot[i].hash : 0u;
    }
    s->boot = core->flash.boot_slot;
}

static thr_status run_op(thr_core *core, const flash_op *o, const flash_timelines *t)
{
    switch (o->what) {
    case FLASH_STORE_A: return thr_slot_store_bytes(core, t->a, t->len_a, o->slot);
    case FLASH_STORE_B: return thr_slot_store_bytes(core, t->b, t->len_b, o->slot);
    case FLASH_BIND: return thr_slot_bind(core, o->slot, THR_SLOT_TRIGGER_BOOT, 0);
    default: return thr_slot_erase(core, o->slot);
    }
}

uint32_t flash_sweep_run(const flash_sweep *s, thr_core *core, unsigned slots, const flash_op *ops,
                         const flash_timelines *t)
{
    flash_state states[FLASH_SWEEP_OPS + 1], now;
    uint32_t cut, cuts = 0;
    int op;
    s->setup();
    flash_state_capture(core, slots, &states[0]);
    for (op = 0; op < FLASH_SWEEP_OPS; op++) {
        CHECK_EQ(run_op(core, &ops[op], t), THR_STATUS_OK);
        flash_state_capture(core, slots, &states[op + 1]);
    }
    /* erases are counted by the budget too: cut after every unit until the whole sequence fits */
    for (cut = 0;; cut++) {
        int interrupted = -1;
        unsigned slot;
        s->setup();
        s->arm(cut);
        for (op = 0; op < FLASH_SWEEP_OPS; op++) {
            if (run_op(core, &ops[op], t) != THR_STATUS_OK || s->dead()) {
                interrupted = op;
                break;
            }
        }
        if (interrupted < 0) break; /* the whole sequence fitted: every cut point was tried */
        cuts++;
        s->restart();
        flash_state_capture(core, slots, &now);
        /* old or new state of the interrupted operation, nothing else */
        if (memcmp(&now, &states[interrupted], sizeof now) != 0 &&
            memcmp(&now, &states[interrupted + 1], sizeof now) != 0) {
            fprintf(stderr, "%s %u in op %d left an unexpected state\n", s->cut_at, (unsigned)cut, interrupted);
            CHECK(0);
            break;
        }
        /* whatever a slot holds after the cut is a valid timeline that plays */
        for (slot = 0; slot < slots; slot++) {
            uint8_t out[sizeof t->b];
            uint32_t length = sizeof out;
            thr_tl_info info;
            if (!core->flash.slot[slot].used) continue;
            CHECK_EQ(thr_slot_read(core, (uint8_t)slot, 0, out, &length), THR_STATUS_OK);
            CHECK_EQ(thr_tl_validate(out, length, &info).error, THR_TL_OK);
        }
        if (s->after_reboot) s->after_reboot();
        if (cut > s->max_cut) {
            CHECK(0);
            break;
        }
    }
    return cuts;
}
