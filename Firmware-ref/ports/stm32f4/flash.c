/* The flash slots in the STM32F401's own flash. The core wants equal sectors; the F401's are 16,
 * 64 and 128 KB. So the slot region is four 64 KB "sectors", each at the start of one physical
 * sector 4..7 (the upper half of 5..7 stays unused): erasing one never touches another, and the
 * image keeps sectors 0-3 (stm32f401re.ld). Programming is by words where aligned, else bytes;
 * the CPU stalls on flash reads while the controller is busy (an erase of 128 KB takes 1-2 s), so
 * the watchdog is kicked while waiting. */
#include "port.h"

#define SECTOR_SIZE  0x10000u
#define SECTOR_COUNT 4u

const uint32_t slot_flash_size = SECTOR_SIZE * SECTOR_COUNT;
const uint32_t slot_sector_size = SECTOR_SIZE;

static const uint32_t sector_base[SECTOR_COUNT] = { 0x08010000u, 0x08020000u, 0x08040000u, 0x08060000u };
static const uint8_t sector_number[SECTOR_COUNT] = { 4u, 5u, 6u, 7u };

void slot_flash_init(void) {}

/* The physical address of a slot address, or 0 when the range leaves its sector. */
static uint32_t physical(uint32_t address, uint32_t length)
{
    uint32_t sector = address / SECTOR_SIZE, offset = address % SECTOR_SIZE;
    if (sector >= SECTOR_COUNT || length > SECTOR_SIZE - offset) return 0;
    return sector_base[sector] + offset;
}

static int wait_ready(void)
{
    while (FLASH_SR & FLASH_SR_BSY) watchdog_kick();
    return (FLASH_SR & FLASH_SR_ERRORS) ? -1 : 0;
}

static void unlock(void)
{
    FLASH_SR = FLASH_SR_ERRORS | FLASH_SR_EOP; /* errors of an earlier operation clear by writing 1 */
    if (FLASH_CR & FLASH_CR_LOCK) {
        FLASH_KEYR = FLASH_KEY1;
        FLASH_KEYR = FLASH_KEY2;
    }
}

/* The data cache may hold what the sector held before: reset it (it must be off meanwhile). */
static void lock(void)
{
    FLASH_CR = FLASH_CR_LOCK;
    FLASH_ACR &= ~FLASH_ACR_DCEN;
    FLASH_ACR |= FLASH_ACR_DCRST;
    FLASH_ACR &= ~FLASH_ACR_DCRST;
    FLASH_ACR |= FLASH_ACR_DCEN;
}

int slot_flash_read(uint32_t address, uint8_t *out, uint32_t length)
{
    const uint8_t *from = (const uint8_t *)physical(address, length);
    if (!from) return -1;
    while (length--) *out++ = *from++;
    return 0;
}

int slot_flash_write(uint32_t address, const uint8_t *data, uint32_t length)
{
    uint32_t to = physical(address, length);
    int status = 0;
    if (!to) return -1;
    unlock();
    while (length && status == 0) {
        if (to % 4u == 0u && length >= 4u) {
            uint32_t word =
                (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
            FLASH_CR = FLASH_CR_PSIZE_32 | FLASH_CR_PG;
            *(volatile uint32_t *)to = word;
            to += 4u, data += 4, length -= 4u;
        } else {
            FLASH_CR = FLASH_CR_PSIZE_8 | FLASH_CR_PG;
            *(volatile uint8_t *)to = *data;
            to++, data++, length--;
        }
        status = wait_ready();
    }
    lock();
    return status;
}

int slot_flash_erase(uint32_t sector_address)
{
    uint32_t sector = sector_address / SECTOR_SIZE;
    int status;
    if (sector_address % SECTOR_SIZE != 0u || sector >= SECTOR_COUNT) return -1;
    unlock();
    FLASH_CR = FLASH_CR_PSIZE_32 | FLASH_CR_SER | ((uint32_t)sector_number[sector] << FLASH_CR_SNB_Pos);
    FLASH_CR |= FLASH_CR_STRT;
    status = wait_ready();
    lock();
    return status;
}
