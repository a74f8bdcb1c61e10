/* A NOR flash with an STM32F4's rules, for the slot store's tests: unequal sectors (a sector map),
 * erase by whole sector, a program granularity (every write aligned and whole units), and a write
 * that would set a bit (1 over 0) fails. A power cut after a given number of operations (a unit
 * programmed, a sector erased) leaves that operation half done and every later call failing. */
#ifndef MODEL_FLASH_H
#define MODEL_FLASH_H

#include <stdint.h>

#define MODEL_FLASH_MAX     (512u * 1024u)
#define MODEL_FLASH_SECTORS 8u

typedef struct model_flash {
    uint32_t sectors[MODEL_FLASH_SECTORS]; /* sizes from address 0 */
    uint8_t sector_count;
    uint32_t size;    /* sum of the sectors */
    uint32_t program; /* granularity */
    uint8_t cut_armed, dead;
    uint32_t ops_until_cut;
    uint32_t ops;        /* units programmed and sectors erased */
    uint32_t violations; /* misaligned or partial writes, writes setting bits, erases off a sector start */
    uint8_t bytes[MODEL_FLASH_MAX];
} model_flash;

/* Erased flash with the F4's sectors (16/16/16/16/64/128/128/128 KB) and program size `program`. */
void model_flash_f4(model_flash *f, uint32_t program);
int model_flash_read(model_flash *f, uint32_t address, uint8_t *out, uint32_t length);
int model_flash_write(model_flash *f, uint32_t address, const uint8_t *data, uint32_t length);
int model_flash_erase(model_flash *f, uint32_t address);

#endif
