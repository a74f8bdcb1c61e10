/* QEMU: the flash slots in RAM. QEMU's flash is read-only to the guest and its flash controller is
 * not modelled, so the slot region is an array that behaves like NOR flash: an erase sets a sector
 * to 0xFF, a write can only clear bits. It lives in .noinit, so it survives a reset (the software
 * watchdog's) but not QEMU's exit; it is erased at the first boot (no marker yet). */
#include "port.h"

#define SECTOR_SIZE  0x4000u /* 16 KB */
#define SECTOR_COUNT 6u      /* metadata A/B + two slots' A/B banks */
#define ERASED_MARK  0x7E5F1A54u

const uint32_t slot_flash_size = SECTOR_SIZE * SECTOR_COUNT;
const uint32_t slot_sector_size = SECTOR_SIZE;

static uint8_t cells[SECTOR_SIZE * SECTOR_COUNT] __attribute__((section(".noinit")));
static uint32_t formatted __attribute__((section(".noinit")));

void slot_flash_init(void)
{
    uint32_t i;
    if (formatted == ERASED_MARK) return;
    for (i = 0; i < sizeof cells; i++) cells[i] = 0xFF;
    formatted = ERASED_MARK;
}

static int in_range(uint32_t address, uint32_t length)
{
    return address <= sizeof cells && length <= sizeof cells - address;
}

int slot_flash_read(uint32_t address, uint8_t *out, uint32_t length)
{
    const uint8_t *from = cells + address;
    if (!in_range(address, length)) return -1;
    while (length--) *out++ = *from++;
    return 0;
}

int slot_flash_write(uint32_t address, const uint8_t *data, uint32_t length)
{
    uint8_t *to = cells + address;
    if (!in_range(address, length)) return -1;
    while (length--) *to++ &= *data++;
    return 0;
}

int slot_flash_erase(uint32_t sector_address)
{
    uint32_t i;
    if (sector_address % SECTOR_SIZE != 0u || sector_address >= sizeof cells) return -1;
    for (i = 0; i < SECTOR_SIZE; i++) cells[sector_address + i] = 0xFF;
    return 0;
}
