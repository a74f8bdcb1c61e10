/* Timeline memory: several timelines packed from the start of the memory; freeing one slides the
 * later ones down (players refer to timelines by handle, never by address, so moving is safe). */
#include <string.h>

#include "thr_internal.h"

static uint32_t used_end(const thr_core *core)
{
    uint32_t end = 0, i;
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        const thr_stored_timeline *tl = &core->timeline[i];
        if (tl->state != THR_TL_FREE && tl->offset + tl->size > end) end = tl->offset + tl->size;
    }
    return end;
}

/* The stored (or uploading) timeline with this handle, or none. */
static thr_stored_timeline *stored(thr_core *core, uint8_t handle)
{
    return handle < THR_MAX_TIMELINES && core->timeline[handle].state != THR_TL_FREE ? &core->timeline[handle] : 0;
}

THR_NOINLINE const thr_stored_timeline *thr_timeline_at(const thr_core *core, uint8_t handle)
{
    return &core->timeline[handle];
}

const uint8_t *thr_timeline_bytes(const thr_core *core, uint8_t handle)
{
    return core->memory + thr_timeline_at(core, handle)->offset;
}

thr_status thr_store_begin(thr_core *core, uint32_t size, uint32_t hash, uint8_t *handle)
{
    uint32_t i, end;
    /* resume an upload (or find a finished one) of the same size and hash */
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        thr_stored_timeline *tl = &core->timeline[i];
        THR_KEEP(tl);
        if (tl->state != THR_TL_FREE && tl->size == size && tl->hash == hash) {
            *handle = (uint8_t)i;
            return THR_STATUS_OK;
        }
    }
    if (size == 0u) return THR_STATUS_BAD_ARGUMENT;
    end = used_end(core);
    if (size > core->memory_size - end) return THR_STATUS_NO_MEMORY;
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        thr_stored_timeline *tl = &core->timeline[i];
        THR_KEEP(tl);
        if (tl->state == THR_TL_FREE) {
            memset(tl, 0, sizeof *tl);
            tl->state = THR_TL_UPLOADING;
            tl->offset = end;
            tl->size = size;
            tl->hash = hash;
            *handle = (uint8_t)i;
            return THR_STATUS_OK;
        }
    }
    return THR_STATUS_NO_MEMORY;
}

thr_status thr_store_chunk(thr_core *core, uint8_t handle, uint32_t offset, const uint8_t *data, uint32_t length)
{
    thr_stored_timeline *tl = stored(core, handle);
    if (!tl) return THR_STATUS_NO_SUCH_TIMELINE;
    if (tl->state != THR_TL_UPLOADING) return THR_STATUS_BUSY;
    /* Only the next expected offset extends the data; a repeat of earlier bytes is harmless and a
     * chunk beyond it stores nothing (the reply states where to continue). */
    if (length > tl->size || offset > tl->size - length) return THR_STATUS_BAD_ARGUMENT;
    if (offset <= tl->received && offset + length > tl->received) {
        uint32_t skip = tl->received - offset;
        thr_copy(core->memory + tl->offset + tl->received, data + skip, length - skip);
        tl->received = offset + length;
    }
    return THR_STATUS_OK;
}

thr_status thr_store_commit(thr_core *core, uint8_t handle, thr_tl_result *why)
{
    thr_stored_timeline *tl = stored(core, handle);
    thr_tl_result r;
    if (!tl) return THR_STATUS_NO_SUCH_TIMELINE;
    if (tl->state >= THR_TL_READY) return THR_STATUS_OK;
    if (tl->received != tl->size) return THR_STATUS_INCOMPLETE;
    if (thr_crc32c_update(0, core->memory + tl->offset, tl->size) != tl->hash) {
        tl->received = 0; /* start over: something arrived wrong */
        return THR_STATUS_HASH_MISMATCH;
    }
#if THR_AUDIO_SAMPLES
    if (thr_wf_is_object(core->memory + tl->offset, tl->size)) {
        thr_status s = thr_wf_commit(core, tl);
        if (s != THR_STATUS_OK) thr_store_free(core, handle);
        return s;
    }
#endif
    r = thr_tl_validate(core->memory + tl->offset, tl->size, &tl->info);
    if (why) *why = r;
    if (r.error != THR_TL_OK) {
        thr_store_free(core, handle);
        return THR_STATUS_BAD_TIMELINE;
    }
    tl->state = THR_TL_READY;
    return THR_STATUS_OK;
}

thr_status thr_store_load(thr_core *core, const uint8_t *bytes, uint32_t size, uint8_t *handle)
{
    thr_status s = thr_store_begin(core, size, thr_crc32c_update(0, bytes, size), handle);
    if (s != THR_STATUS_OK) return s;
    if (core->timeline[*handle].state == THR_TL_READY) return THR_STATUS_OK;
    s = thr_store_chunk(core, *handle, 0, bytes, size);
    if (s != THR_STATUS_OK) return s;
    return thr_store_commit(core, *handle, 0);
}

thr_status thr_store_free(thr_core *core, uint8_t handle)
{
    thr_stored_timeline *tl = stored(core, handle);
    uint32_t i, offset, size, end;
    if (!tl) return THR_STATUS_NO_SUCH_TIMELINE;
    if (tl->users) return THR_STATUS_BUSY; /* a player holds it (counted by thr_player.c) */
    offset = tl->offset;
    size = tl->size;
    tl->state = THR_TL_FREE;
    /* Timelines are packed without holes, so everything after this one moves down in one go. */
    end = used_end(core);
    if (end > offset + size) thr_copy(core->memory + offset, core->memory + offset + size, end - offset - size);
    for (i = 0; i < THR_MAX_TIMELINES; i++) {
        thr_stored_timeline *other = &core->timeline[i];
        if (other->state != THR_TL_FREE && other->offset > offset) other->offset -= size;
    }
    return THR_STATUS_OK;
}
