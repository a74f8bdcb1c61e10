/* The NOR flash model (model_flash.h). */
#include "model_flash.h"

#include <string.h>

void model_flash_f4(model_flash *f, uint32_t program)
{
    static const uint32_t kb[MODEL_FLASH_SECTORS] = { 16, 16, 16, 16, 64, 128, 128, 128 };
    unsigned i;
    memset(f, 0, sizeof *f);
    for (i = 0; i < MODEL_FLASH_SECTORS; i++) {
        f->sectors[i] = kb[i] * 1024u;
        f->size += f->sectors[i];
    }
    f->sector_count = MODEL_FLASH_SECTORS;
    f->program = program;
    memset(f->bytes, 0xFF, sizeof f->bytes);
}

/* One operation of the power budget: 0 when the power is cut during it. */
static int operation(model_flash *f)
{
    f->ops++;
    if (!f->cut_armed) return 1;
    if (f->ops_until_cut == 0u) {
        f->dead = 1;
        return 0;
    }
    f->ops_until_cut--;
    return 1;
}

int model_flash_read(model_flash *f, uint32_t address, uint8_t *out, uint32_t length)
{
    if (f->dead || address > f->size || length > f->size - address) return -1;
    memcpy(out, f->bytes + address, length);
    return 0;
}

int model_flash_write(model_flash *f, uint32_t address, const uint8_t *data, uint32_t length)
{
    uint32_t done, i;
    if (f->dead || address > f->size || length > f->size - address) return -1;
    if (address % f->program != 0u || length % f->program != 0u) {
        f->violations++;
        return -1;
    }
    for (done = 0; done < length; done += f->program) {
        uint8_t *to = f->bytes + address + done;
        uint32_t n = f->program;
        for (i = 0; i < f->program; i++) {
            if ((to[i] & data[done + i]) != data[done + i]) { /* NOR: programming only clears bits */
                f->violations++;
                return -1;
            }
        }
        if (!operation(f)) n = (f->program + 1u) / 2u; /* cut mid-unit: part of it programmed */
        for (i = 0; i < n; i++) to[i] = data[done + i];
        if (f->dead) return -1;
    }
    return 0;
}

int model_flash_erase(model_flash *f, uint32_t address)
{
    uint32_t start = 0;
    unsigned i;
    if (f->dead) return -1;
    for (i = 0; i < f->sector_count && start != address; i++) start += f->sectors[i];
    if (i == f->sector_count) {
        f->violations++;
        return -1;
    }
    if (!operation(f)) { /* cut during the erase: the sector's first half erased, the rest not yet */
        memset(f->bytes + start, 0xFF, f->sectors[i] / 2u);
        return -1;
    }
    memset(f->bytes + start, 0xFF, f->sectors[i]);
    return 0;
}
