/* Playing a flash slot: its timeline is loaded into timeline memory (thr_flash.c), then a player
 * starts it. Above both the flash store and the players, which know nothing of each other. */
#include "thr_flash.h"
#include "thr_internal.h"

thr_status thr_slot_play(thr_core *core, uint8_t slot, uint8_t player, uint32_t at)
{
    uint8_t handle;
    thr_status s;
    /* a missing slot is reported before a missing player, and neither loads anything */
    if (!thr_slot_used(core, slot)) return THR_STATUS_NO_SUCH_SLOT;
    if (player >= THR_MAX_PLAYERS) return THR_STATUS_NO_SUCH_PLAYER;
    s = thr_slot_load(core, slot, &handle);
    return s != THR_STATUS_OK ? s : thr_player_start(core, player, handle, at, 0);
}

thr_status thr_slot_play_input(thr_core *core, uint8_t input)
{
    if (input >= sizeof core->flash.trigger_slot || core->flash.trigger_slot[input] == THR_SLOT_NONE)
        return THR_STATUS_NO_SUCH_SLOT;
    return thr_slot_play(core, core->flash.trigger_slot[input], THR_MAX_PLAYERS - 1u, core->now);
}
