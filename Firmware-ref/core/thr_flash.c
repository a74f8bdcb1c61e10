/* Flash slots with atomic A/B banks (see thr_flash.h for the layout and the argument). */
#include <string.h>

#include "thr_flash.h"
#include "thr_internal.h"

#define HEADER_SIZE    20u
#define KIND_DATA      1u
#define KIND_TOMBSTONE 2u
#define KIND_META      3u
#define META_SIZE      8u
#define COPY_CHUNK     64u

typedef struct bank_header {
    uint8_t kind, index;
    uint32_t seq, size, crc;
} bank_header;

static uint32_t sector(const thr_core *core)
{
    return core->config->flash_sector_size;
}
static uint32_t meta_address(const thr_core *core, unsigned bank)
{
    return bank * sector(core);
}
static uint32_t slot_address(const thr_core *core, unsigned slot, unsigned bank)
{
    return 2u * sector(core) + (2u * slot + bank) * core->flash.bank_size;
}

/* The slot's state when the store is ready and the slot holds a timeline, else none. */
static const thr_slot_state *used_slot(const thr_core *core, uint8_t slot)
{
    return core->flash.ready && slot < core->config->slot_count && core->flash.slot[slot].used ? &core->flash.slot[slot]
                                                                                               : 0;
}

static int flash_read(thr_core *core, uint32_t address, uint8_t *out, uint32_t length)
{
    return core->hal->flash_read && core->hal->flash_read(core->hal->ctx, address, out, length) == 0;
}

/* CRC-32 of `length` bytes of flash (read in chunks; no big buffer). */
/* CRC-32C of `length` bytes of flash (read in chunks; no big buffer): the same content hash as
 * UPLOAD_BEGIN's, so SLOT_LIST's hash tells the host whether a slot holds a timeline it has. */
static int flash_crc(thr_core *core, uint32_t address, uint32_t length, uint32_t *crc)
{
    uint8_t chunk[COPY_CHUNK];
    uint32_t done = 0, value = 0;
    while (done < length) {
        uint32_t n = length - done < COPY_CHUNK ? length - done : COPY_CHUNK;
        if (!flash_read(core, address + done, chunk, n)) return 0;
        value = thr_crc32c_update(value, chunk, n);
        done += n;
    }
    *crc = value;
    return 1;
}

/* A bank is valid when its header is whole (its own CRC matches) and its content matches. */
static int read_bank(thr_core *core, uint32_t address, uint32_t capacity, bank_header *h)
{
    uint8_t raw[HEADER_SIZE];
    uint32_t crc;
    if (!flash_read(core, address, raw, HEADER_SIZE)) return 0;
    if (raw[0] != 0x54u || raw[1] != 0x53u) return 0;
    if (thr_crc32_update(0, raw, HEADER_SIZE - 4u) != thr_get32(raw + 16)) return 0;
    h->kind = raw[2];
    h->index = raw[3];
    h->seq = thr_get32(raw + 4);
    h->size = thr_get32(raw + 8);
    h->crc = thr_get32(raw + 12);
    if (h->kind == KIND_TOMBSTONE) return h->size == 0u;
    if ((h->kind != KIND_DATA && h->kind != KIND_META) || h->size > capacity) return 0;
    return flash_crc(core, address + HEADER_SIZE, h->size, &crc) && crc == h->crc;
}

/* Erase the bank, write the content, then the header last. */
static int write_bank(thr_core *core, uint32_t address, uint32_t bank_size, const bank_header *h,
                      const uint8_t *content)
{
    const thr_hal *hal = core->hal;
    uint8_t raw[HEADER_SIZE];
    uint32_t s;
    if (!hal->flash_write || !hal->flash_erase) return 0;
    for (s = 0; s < bank_size; s += sector(core)) {
        if (hal->flash_erase(hal->ctx, address + s) != 0) return 0;
    }
    if (h->size && hal->flash_write(hal->ctx, address + HEADER_SIZE, content, h->size) != 0) return 0;
    raw[0] = 0x54;
    raw[1] = 0x53;
    raw[2] = h->kind;
    raw[3] = h->index;
    thr_put32(raw + 4, h->seq);
    thr_put32(raw + 8, h->size);
    thr_put32(raw + 12, h->crc);
    thr_put32(raw + 16, thr_crc32_update(0, raw, HEADER_SIZE - 4u));
    return hal->flash_write(hal->ctx, address, raw, HEADER_SIZE) == 0;
}

static void load_meta(thr_core *core)
{
    thr_flash_store *fs = &core->flash;
    unsigned bank;
    fs->meta_seq = 0;
    fs->meta_bank = 1; /* so the first write goes to bank 0 */
    fs->boot_slot = THR_SLOT_NONE;
    memset(fs->trigger_slot, THR_SLOT_NONE, sizeof fs->trigger_slot);
    for (bank = 0; bank < 2u; bank++) {
        bank_header h;
        uint8_t meta[META_SIZE];
        if (!read_bank(core, meta_address(core, bank), sector(core) - HEADER_SIZE, &h) || h.kind != KIND_META ||
            h.size != META_SIZE || h.seq < fs->meta_seq)
            continue;
        if (!flash_read(core, meta_address(core, bank) + HEADER_SIZE, meta, META_SIZE)) continue;
        fs->meta_seq = h.seq;
        fs->meta_bank = (uint8_t)bank;
        fs->boot_slot = meta[0];
        thr_copy(fs->trigger_slot, meta + 1, sizeof fs->trigger_slot);
    }
}

static thr_status save_meta(thr_core *core)
{
    thr_flash_store *fs = &core->flash;
    uint8_t meta[META_SIZE];
    bank_header h;
    unsigned bank = fs->meta_bank ^ 1u;
    memset(meta, 0, sizeof meta);
    meta[0] = fs->boot_slot;
    thr_copy(meta + 1, fs->trigger_slot, sizeof fs->trigger_slot);
    h.kind = KIND_META;
    h.index = 0;
    h.seq = fs->meta_seq + 1u;
    h.size = META_SIZE;
    h.crc = thr_crc32c_update(0, meta, META_SIZE);
    if (!write_bank(core, meta_address(core, bank), sector(core), &h, meta)) return THR_STATUS_FLASH_ERROR;
    fs->meta_seq = h.seq;
    fs->meta_bank = (uint8_t)bank;
    return THR_STATUS_OK;
}

void thr_flash_init(thr_core *core)
{
    thr_flash_store *fs = &core->flash;
    const thr_board_config *cfg = core->config;
    unsigned slot, bank;
    memset(fs, 0, sizeof *fs);
    fs->boot_slot = THR_SLOT_NONE;
    memset(fs->trigger_slot, THR_SLOT_NONE, sizeof fs->trigger_slot);
    if (cfg->slot_count == 0u || cfg->flash_sector_size < 64u || !core->hal->flash_read) return;
    fs->bank_size =
        (HEADER_SIZE + cfg->slot_size + cfg->flash_sector_size - 1u) / cfg->flash_sector_size * cfg->flash_sector_size;
    if (cfg->flash_size < 2u * cfg->flash_sector_size ||
        (cfg->flash_size - 2u * cfg->flash_sector_size) / 2u / cfg->slot_count < fs->bank_size)
        return; /* the region cannot hold the configured slots: no flash store */
    fs->ready = 1;
    load_meta(core);
    for (slot = 0; slot < cfg->slot_count; slot++) {
        thr_slot_state *st = &fs->slot[slot];
        st->bank = 1;
        for (bank = 0; bank < 2u; bank++) {
            bank_header h;
            if (!read_bank(core, slot_address(core, slot, bank), cfg->slot_size, &h) || h.index != slot ||
                h.kind == KIND_META)
                continue;
            if (h.seq < st->seq || (h.seq == st->seq && st->used)) continue;
            st->seq = h.seq;
            st->bank = (uint8_t)bank;
            st->used = h.kind == KIND_DATA;
            st->size = h.size;
            st->hash = h.crc;
        }
    }
}

static thr_status slot_write(thr_core *core, uint8_t slot, uint8_t kind, const uint8_t *bytes, uint32_t size)
{
    thr_flash_store *fs = &core->flash;
    thr_slot_state *st;
    bank_header h;
    unsigned bank;
    if (!fs->ready || slot >= core->config->slot_count) return THR_STATUS_NO_SUCH_SLOT;
    if (size > core->config->slot_size) return THR_STATUS_NO_MEMORY;
    st = &fs->slot[slot];
    bank = st->bank ^ 1u;
    h.kind = kind;
    h.index = slot;
    h.seq = st->seq + 1u;
    h.size = size;
    h.crc = size ? thr_crc32c_update(0, bytes, size) : 0u;
    if (!write_bank(core, slot_address(core, slot, bank), fs->bank_size, &h, bytes)) return THR_STATUS_FLASH_ERROR;
    st->seq = h.seq;
    st->bank = (uint8_t)bank;
    st->used = kind == KIND_DATA;
    st->size = size;
    st->hash = h.crc;
    return THR_STATUS_OK;
}

thr_status thr_slot_store_bytes(thr_core *core, const uint8_t *bytes, uint32_t size, uint8_t slot)
{
    thr_tl_info info;
    if (thr_tl_validate(bytes, size, &info).error != THR_TL_OK) return THR_STATUS_BAD_TIMELINE;
    return slot_write(core, slot, KIND_DATA, bytes, size);
}

thr_status thr_slot_store(thr_core *core, uint8_t handle, uint8_t slot)
{
    if (handle >= THR_MAX_TIMELINES || core->timeline[handle].state != THR_TL_READY) return THR_STATUS_NO_SUCH_TIMELINE;
    return slot_write(core, slot, KIND_DATA, thr_timeline_bytes(core, handle), core->timeline[handle].size);
}

thr_status thr_slot_erase(thr_core *core, uint8_t slot)
{
    thr_status s;
    if (!core->flash.ready || slot >= core->config->slot_count) return THR_STATUS_NO_SUCH_SLOT;
    if (!core->flash.slot[slot].used) return THR_STATUS_OK;
    s = slot_write(core, slot, KIND_TOMBSTONE, 0, 0);
    return s;
}

thr_status thr_slot_read(thr_core *core, uint8_t slot, uint32_t offset, uint8_t *out, uint32_t *length)
{
    const thr_slot_state *st = used_slot(core, slot);
    if (!st) return THR_STATUS_NO_SUCH_SLOT;
    if (offset > st->size) return THR_STATUS_BAD_ARGUMENT;
    if (*length > st->size - offset) *length = st->size - offset;
    if (*length && !flash_read(core, slot_address(core, slot, st->bank) + HEADER_SIZE + offset, out, *length))
        return THR_STATUS_FLASH_ERROR;
    return THR_STATUS_OK;
}

int thr_slot_used(const thr_core *core, uint8_t slot)
{
    return used_slot(core, slot) != 0;
}

thr_status thr_slot_load(thr_core *core, uint8_t slot, uint8_t *handle)
{
    const thr_slot_state *st = used_slot(core, slot);
    uint32_t address, done = 0;
    uint8_t chunk[COPY_CHUNK];
    thr_status s;
    if (!st) return THR_STATUS_NO_SUCH_SLOT;
    address = slot_address(core, slot, st->bank) + HEADER_SIZE;
    /* the slot's hash is the upload hash (CRC-32C): commit checks the copy against it */
    s = thr_store_begin(core, st->size, st->hash, handle);
    if (s != THR_STATUS_OK || core->timeline[*handle].state != THR_TL_UPLOADING) return s;
    while (done < st->size) {
        uint32_t n = st->size - done < COPY_CHUNK ? st->size - done : COPY_CHUNK;
        if (!flash_read(core, address + done, chunk, n)) return THR_STATUS_FLASH_ERROR;
        s = thr_store_chunk(core, *handle, done, chunk, n);
        if (s != THR_STATUS_OK) return s;
        done += n;
    }
    return thr_store_commit(core, *handle, 0);
}

thr_status thr_slot_bind(thr_core *core, uint8_t slot, uint8_t trigger, uint8_t input)
{
    thr_flash_store *fs = &core->flash;
    if (!fs->ready) return THR_STATUS_NOT_SUPPORTED;
    if (slot != THR_SLOT_NONE && slot >= core->config->slot_count) return THR_STATUS_NO_SUCH_SLOT;
    if (trigger == THR_SLOT_TRIGGER_BOOT) {
        fs->boot_slot = slot;
    } else if (trigger == THR_SLOT_TRIGGER_INPUT && input < sizeof fs->trigger_slot &&
               input < core->config->trigger_inputs) {
        fs->trigger_slot[input] = slot;
    } else {
        return THR_STATUS_BAD_ARGUMENT;
    }
    return save_meta(core);
}
