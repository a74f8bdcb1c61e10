/* The flash tests' shared parts: the two timelines they store, the observable slot state, and
 * the power-cut sweep (a cut at every point of a sequence of slot operations; after the reboot,
 * the old or the new state of the interrupted operation, every stored slot a valid timeline).
 * Each flash (the stub board's bytes, the F4 model's units and sectors) plugs in through hooks. */
#ifndef THR_FLASH_SWEEP_H
#define THR_FLASH_SWEEP_H

#include <stdint.h>

#include "thr_core.h"

/* A: one transient (0.8, 0.3) at 100 ms. B: 300 transients, a bigger timeline (616 bytes: not a
 * whole number of 16-byte units). */
typedef struct flash_timelines {
    uint8_t a[64], b[700];
    uint32_t len_a, len_b;
} flash_timelines;
void flash_timelines_make(flash_timelines *t);

/* The observable flash state: per slot (used, size, CRC) and the boot binding. */
typedef struct flash_state {
    uint8_t used[THR_MAX_SLOTS];
    uint32_t size[THR_MAX_SLOTS], hash[THR_MAX_SLOTS];
    uint8_t boot;
} flash_state;
/* The first `slots` slots' state; the others read as unused. */
void flash_state_capture(const thr_core *core, unsigned slots, flash_state *s);

/* One slot operation of a sequence: store timeline A or B in `slot`, bind `slot` to boot, erase it. */
enum { FLASH_STORE_A, FLASH_STORE_B, FLASH_BIND, FLASH_ERASE };
typedef struct flash_op {
    uint8_t what, slot;
} flash_op;
#define FLASH_SWEEP_OPS 6

/* How a flash under test loses its power and gets it back. */
typedef struct flash_sweep {
    const char *cut_at;         /* "power cut at budget byte": the failure message's start */
    uint32_t max_cut;           /* a cut point beyond this fails: the sequence never fitted */
    void (*setup)(void);        /* a fresh board, its flash erased, the core started */
    void (*arm)(uint32_t cut);  /* the power goes after `cut` more units of the flash's budget */
    int (*dead)(void);          /* the power went */
    void (*restart)(void);      /* the power is back: the core restarted over the same flash */
    void (*after_reboot)(void); /* more checks after each reboot, or 0 */
} flash_sweep;
/* Runs `ops` (FLASH_SWEEP_OPS of them) once on `core` to record each state, then again from a fresh
 * board with a power cut at budget unit 0, 1, 2, ... until the whole sequence fits, comparing and
 * reading back the first `slots` slots after each reboot; returns the cut points tried. */
uint32_t flash_sweep_run(const flash_sweep *s, thr_core *core, unsigned slots, const flash_op *ops,
                         const flash_timelines *t);

#endif
