/* The flash slots in the STM32F401's own flash. The core wants equal sectors; the F401's are 16,
 * 64 and 128 KB. So the slot region is four 64 KB "sectors", each at the start of one physical
 * sector 4..7 (the upper half of 5..7 stays unused): erasing one never touches another, and the
 * image keeps sectors 0-3 (stm32f401re.ld). Programming is by words where aligned, else bytes.
 *
 * While the controller erases or programs, every read of the flash stalls the bus until it is done
 * (RM0368 §3.5), and a 128 KB sector erase takes up to 2 s at x32 (DS10086 Table 45, t_ERASE128KB). So what starts an
 * operation and waits for it runs from RAM (RAMFUNC), as do the interrupt handlers that must run
 * meanwhile (SysTick, USART2 and the core's receive ring) and the vector table (startup.c): the
 * board keeps receiving and its clock (TIM5) keeps counting; only the main loop waits. The watchdog
 * is kicked right before each operation and not during it (a controller stuck busy then resets the
 * board); its timeout outlasts the longest erase (iwdg.c). */
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

/* From RAM: the operation's last write to FLASH_CR (STRT) or to the flash itself, then the wait. */
static RAMFUNC uint32_t erase_in_ram(uint32_t control)
{
    FLASH_CR = control;
    FLASH_CR = control | FLASH_CR_STRT;
    while (FLASH_SR & FLASH_SR_BSY) {}
    return FLASH_SR;
}

static RAMFUNC uint32_t program_word_in_ram(uint32_t address, uint32_t word)
{
    FLASH_CR = FLASH_CR_PSIZE_32 | FLASH_CR_PG;
    STM32F4_MEM32(address) = word;
    while (FLASH_SR & FLASH_SR_BSY) {}
    return FLASH_SR;
}

static RAMFUNC uint32_t program_byte_in_ram(uint32_t address, uint8_t byte)
{
    FLASH_CR = FLASH_CR_PSIZE_8 | FLASH_CR_PG;
    STM32F4_MEM8(address) = byte;
    while (FLASH_SR & FLASH_SR_BSY) {}
    return FLASH_SR;
}

static int result(uint32_t status)
{
    return (status & FLASH_SR_ERRORS) ? -1 : 0;
}

/* 0 once FLASH_CR is unlocked. A wrong key sequence (a stray write to FLASH_KEYR) locks it until the
 * next reset (RM0368 §3.6.1): then nothing may be reported as erased or written. */
static int unlock(void)
{
    FLASH_SR = FLASH_SR_ERRORS | FLASH_SR_EOP; /* errors of an earlier operation clear by writing 1 */
    if (FLASH_CR & FLASH_CR_LOCK) {
        FLASH_KEYR = FLASH_KEY1;
        FLASH_KEYR = FLASH_KEY2;
    }
    return (FLASH_CR & FLASH_CR_LOCK) ? -1 : 0;
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
    uint32_t from = physical(address, length);
    if (!from) return -1;
    while (length--) *out++ = STM32F4_MEM8(from++);
    return 0;
}

int slot_flash_write(uint32_t address, const uint8_t *data, uint32_t length)
{
    uint32_t to = physical(address, length);
    int status = 0;
    if (!to || unlock() != 0) return -1;
    while (length && status == 0) {
        watchdog_kick();
        if (to % 4u == 0u && length >= 4u) {
            uint32_t word =
                (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 | (uint32_t)data[3] << 24;
            status = result(program_word_in_ram(to, word));
            to += 4u, data += 4, length -= 4u;
        } else {
            status = result(program_byte_in_ram(to, *data));
            to++, data++, length--;
        }
    }
    lock();
    return status;
}

int slot_flash_erase(uint32_t sector_address)
{
    uint32_t sector = sector_address / SECTOR_SIZE;
    int status;
    if (sector_address % SECTOR_SIZE != 0u || sector >= SECTOR_COUNT || unlock() != 0) return -1;
    watchdog_kick();
    status =
        result(erase_in_ram(FLASH_CR_PSIZE_32 | FLASH_CR_SER | ((uint32_t)sector_number[sector] << FLASH_CR_SNB_Pos)));
    lock();
    return status;
}
