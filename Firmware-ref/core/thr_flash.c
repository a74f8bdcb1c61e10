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
/* The header area: the header rounded up to whole program units (flash.head), or just the header. */
#if THR_FLASH_PROGRAM_MAX > 1u
#define HEAD(core) ((uint32_t)(core)->flash.head)
#else
#define HEAD(core) HEADER_SIZE
#endif

typedef struct bank_header {
    uint8_t kind, index;
    uint32_t seq, size, crc;
} bank_header;

/* Bank i's place: the metadata banks are 0 and 1, slot s's banks 2 + 2s and 3 + 2s; bank i runs
 * from bank_at(i) to bank_at(i + 1) (whole sectors). */
#if THR_FLASH_SECTOR_MAP
static uint32_t bank_at(const thr_core *core, unsigned i)
{
    return core->flash.bank_at[i];
}

/* The size of the sector that starts at `address` (equal sectors, or the sector map), 0 when none
 * starts there. */
static uint32_t sector_at(const thr_core *core, uint32_t address)
{
    const thr_board_config *cfg = core->config;
    uint32_t start = 0;
    unsigned i;
    if (!cfg->flash_sectors) return cfg->flash_sector_size;
    for (i = 0; i < cfg->flash_sector_count; i++) {
        if (start == address) return cfg->flash_sectors[i];
        start += cfg->flash_sectors[i];
    }
    return 0;
}
#else
/* Equal sectors: a metadata bank is one sector, a slot bank bank_size bytes. */
static uint32_t bank_at(const thr_core *core, unsigned i)
{
    uint32_t sector = core->config->flash_sector_size;
    return i < 2u ? i * sector : 2u * sector + (i - 2u) * core->flash.bank_size;
}
#define sector_at(core, address) ((core)->config->flash_sector_size)
#endif
THR_INLINE uint32_t bank_address(const thr_core *core, unsigned slot, unsigned bank)
{
    return bank_at(core, 2u * slot + bank);
}
#define META 0u /* bank_address's `slot` for the metadata banks; slot s is s + 1 */

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
    return flash_crc(core, address + HEAD(core), h->size, &crc) && crc == h->crc;
}

#if THR_FLASH_PROGRAM_MAX > 1u
/* Writes `length` bytes as whole program units, through a buffer of THR_FLASH_PROGRAM_MAX bytes
 * (a whole number of units): the last unit is padded with 0xFF. */
THR_INLINE int program(thr_core *core, uint32_t address, const uint8_t *data, uint32_t length)
{
    const thr_hal *hal = core->hal;
    uint8_t unit[THR_FLASH_PROGRAM_MAX];
    uint32_t done, n, i, mask = core->flash.program - 1u;
    for (done = 0; done < length; done += n) {
        n = length - done < sizeof unit ? length - done : sizeof unit;
        for (i = 0; i < sizeof unit; i++) unit[i] = i < n ? data[done + i] : 0xFFu;
        if (hal->flash_write(hal->ctx, address + done, unit, (n + mask) & ~mask) != 0) return 0;
    }
    return 1;
}
#else
/* Byte-programmable flash: the bytes as they are. */
THR_INLINE int program(thr_core *core, uint32_t address, const uint8_t *data, uint32_t length)
{
    const thr_hal *hal = core->hal;
    return !length || hal->flash_write(hal->ctx, address, data, length) == 0;
}
#endif

/* Erases bank `index` (its sectors), writes the content, then the header last (when the header
 * spans two program units, the one with its CRC is written last). */
static int write_bank(thr_core *core, unsigned index, const bank_header *h, const uint8_t *content)
{
    const thr_hal *hal = core->hal;
    uint8_t raw[HEADER_SIZE];
    uint32_t a, start = bank_at(core, index);
    if (!hal->flash_write || !hal->flash_erase) return 0;
    for (a = start; a < bank_at(core, index + 1u); a += sector_at(core, a)) {
        if (hal->flash_erase(hal->ctx, a) != 0) return 0;
    }
    if (!program(core, start + HEAD(core), content, h->size)) return 0;
    raw[0] = 0x54;
    raw[1] = 0x53;
    raw[2] = h->kind;
    raw[3] = h->index;
    thr_put32(raw + 4, h->seq);
    thr_put32(raw + 8, h->size);
    thr_put32(raw + 12, h->crc);
    thr_put32(raw + 16, thr_crc32_update(0, raw, HEADER_SIZE - 4u));
    return program(core, start, raw, HEADER_SIZE);
}

static void load_meta(thr_core *core)
{
    thr_flash_store *fs = &core->flash;
    unsigned bank;
    THR_KEEP(fs);
    fs->meta_seq = 0;
    fs->meta_bank = 1; /* so the first write goes to bank 0 */
    fs->boot_slot = THR_SLOT_NONE;
    memset(fs->trigger_slot, THR_SLOT_NONE, sizeof fs->trigger_slot);
    for (bank = 0; bank < 2u; bank++) {
        bank_header h;
        uint8_t meta[META_SIZE];
        uint32_t address = bank_address(core, META, bank);
        if (!read_bank(core, address, META_SIZE, &h) || h.kind != KIND_META || h.size != META_SIZE ||
            h.seq < fs->meta_seq)
            continue;
        if (!flash_read(core, address + HEAD(core), meta, META_SIZE)) continue;
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
    unsigned bank;
    THR_KEEP(fs);
    bank = fs->meta_bank ^ 1u;
    memset(meta, 0, sizeof meta);
    meta[0] = fs->boot_slot;
    thr_copy(meta + 1, fs->trigger_slot, sizeof fs->trigger_slot);
    h.kind = KIND_META;
    h.index = 0;
    h.seq = fs->meta_seq + 1u;
    h.size = META_SIZE;
    h.crc = thr_crc32c_update(0, meta, META_SIZE);
    if (!write_bank(core, bank, &h, meta)) return THR_STATUS_FLASH_ERROR;
    fs->meta_seq = h.seq;
    fs->meta_bank = (uint8_t)bank;
    return THR_STATUS_OK;
}

void thr_flash_init(thr_core *core)
{
    thr_flash_store *fs = &core->flash;
    const thr_board_config *cfg = core->config;
    unsigned slot, bank;
    uint32_t a = 0;
    THR_KEEP(fs);
    memset(fs, 0, sizeof *fs);
    fs->boot_slot = THR_SLOT_NONE;
    memset(fs->trigger_slot, THR_SLOT_NONE, sizeof fs->trigger_slot);
    if (cfg->slot_count == 0u || !core->hal->flash_read || cfg->flash_program_size > THR_FLASH_PROGRAM_MAX) return;
#if THR_FLASH_PROGRAM_MAX > 1u
    if (cfg->flash_program_size & (cfg->flash_program_size - 1u)) return; /* not a power of two */
    fs->program = cfg->flash_program_size ? cfg->flash_program_size : 1u;
    fs->head = (uint8_t)((HEADER_SIZE + fs->program - 1u) & ~(fs->program - 1u));
#endif
#if THR_FLASH_SECTOR_MAP
    /* banks on whole sectors, one after the other: 2 metadata banks, then 2 per slot */
    for (bank = 0; bank < 2u + 2u * cfg->slot_count; bank++) {
        uint32_t start = a, need = HEAD(core) + (bank < 2u ? META_SIZE : cfg->slot_size);
        fs->bank_at[bank] = start;
        while (a - start < need) {
            uint32_t size = sector_at(core, a);
            if (size == 0u || size > cfg->flash_size - a) return; /* the region cannot hold the slots */
            a += size;
        }
    }
    fs->bank_at[bank] = a;
#else
    a = cfg->flash_sector_size; /* >= 64: a metadata bank's header area and content fit one sector */
    if (a < 64u) return;
    fs->bank_size = (HEAD(core) + cfg->slot_size + a - 1u) / a * a;
    if (cfg->flash_size < 2u * a || (cfg->flash_size - 2u * a) / 2u / cfg->slot_count < fs->bank_size)
        return; /* the region cannot hold the configured slots: no flash store */
#endif
    fs->ready = 1;
    load_meta(core);
    for (slot = 0; slot < cfg->slot_count; slot++) {
        thr_slot_state *st = &fs->slot[slot];
        st->bank = 1;
        for (bank = 0; bank < 2u; bank++) {
            bank_header h;
            if (!read_bank(core, bank_address(core, slot + 1u, bank), cfg->slot_size, &h) || h.index != slot ||
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
    THR_KEEP(fs);
    if (!fs->ready || slot >= core->config->slot_count) return THR_STATUS_NO_SUCH_SLOT;
    if (size > core->config->slot_size) return THR_STATUS_NO_MEMORY;
    st = &fs->slot[slot];
    THR_KEEP(st);
    bank = st->bank ^ 1u;
    h.kind = kind;
    h.index = slot;
    h.seq = st->seq + 1u;
    h.size = size;
    h.crc = size ? thr_crc32c_update(0, bytes, size) : 0u;
    if (!write_bank(core, 2u * (slot + 1u) + bank, &h, bytes)) return THR_STATUS_FLASH_ERROR;
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
    if (*length && !flash_read(core, bank_address(core, slot + 1u, st->bank) + HEAD(core) + offset, out, *length))
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
    address = bank_address(core, slot + 1u, st->bank) + HEAD(core);
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
    THR_KEEP(fs);
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
