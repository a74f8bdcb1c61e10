/* Flash slots: timelines stored in flash, playable without the host, with atomic replacement.
 *
 * Layout (whole sectors from address 0: equal ones of config->flash_sector_size, or the sector
 * map config->flash_sectors): two metadata banks (boot and trigger bindings), then two banks per
 * slot, each bank the fewest consecutive sectors that hold its header area (the 20-byte header
 * rounded up to flash_program_size) and its content (slot_size bytes at most). A write goes to
 * the bank not holding the current content: erase its sectors, write the content, then write the
 * header (magic, kind, slot, sequence, size, content CRC-32C = the upload hash, header CRC-32)
 * last, every write whole program units (padded with 0xFF). At start-up the valid bank with the
 * highest sequence wins. A power cut at any
 * byte leaves the old bank intact and the new one without a valid header: the old content (or the
 * old emptiness) stays; never a half-written slot. Erasing a slot writes a "tombstone" header the
 * same way. */
#ifndef THR_FLASH_H
#define THR_FLASH_H

#include "thr_core.h"

#define THR_SLOT_NONE 255u

/* Stores a loaded (committed) timeline in a slot. */
thr_status thr_slot_store(thr_core *core, uint8_t handle, uint8_t slot);
/* Stores bytes directly (validated first). */
thr_status thr_slot_store_bytes(thr_core *core, const uint8_t *bytes, uint32_t size, uint8_t slot);
thr_status thr_slot_erase(thr_core *core, uint8_t slot);
/* Reads stored bytes back; *length is shortened at the end of the content. */
thr_status thr_slot_read(thr_core *core, uint8_t slot, uint32_t offset, uint8_t *out, uint32_t *length);
/* 1 when the store is ready and the slot holds a timeline. */
int thr_slot_used(const thr_core *core, uint8_t slot);
/* Loads the slot's timeline into timeline memory (validated at commit, as an upload is); gives its
 * handle. A timeline already loaded (same size and hash) is found, not copied again. */
thr_status thr_slot_load(thr_core *core, uint8_t slot, uint8_t *handle);
/* thr_slot_play.c: loads the slot (thr_slot_load) and starts it on `player` at board time `at`. */
thr_status thr_slot_play(thr_core *core, uint8_t slot, uint8_t player, uint32_t at);
/* Binds a slot to boot (THR_SLOT_TRIGGER_BOOT) or to trigger input `input` (THR_SLOT_TRIGGER_INPUT);
 * slot 255 unbinds. `trigger` is the wire's byte, checked here. */
thr_status thr_slot_bind(thr_core *core, uint8_t slot, uint8_t trigger, uint8_t input);
/* thr_slot_play.c: a trigger input fired: plays its bound slot on the last player. (Named for the
 * input: thr_slot_trigger is the wire's enum of what a slot is bound to, thr_wire.h.) */
thr_status thr_slot_play_input(thr_core *core, uint8_t input);

#endif
