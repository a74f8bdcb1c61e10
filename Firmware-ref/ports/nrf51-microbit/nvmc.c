/* The flash slots in the nRF51822's own flash, through the NVMC (RM §6): 1 KB pages (PS §8.1), erased
 * to 0xFF a page at a time, programmed a 32-bit word at a time; a write can only clear bits. The slot
 * region is the upper 64 KB (0x30000-0x3FFFF): the image keeps below it (nrf51822.ld), so erasing a
 * page never touches code, and QEMU, which reverts the image's pages on a reset, keeps the slots.
 *
 * The core writes each range once after erasing it (the store writes a bank's content, then its
 * header; thr_flash.c), byte-aligned. A write of bytes that share a word with others is made with
 * 0xFF in the others, which leaves them as they are; each word is programmed once per write, within
 * the chip's limit of writes to one word between erases (n_WRITE = 2, PS §8.1).
 *
 * While the NVMC erases (up to 22.3 ms a page) or writes (up to 46 µs a word; the PS's t_PAGEERASE
 * and t_WRITE), the CPU is halted (RM §6.1.1, §6.1.4): interrupts wait, TIMER0 keeps counting board
 * time, the UART's FIFO holds 6 bytes and loses later ones (the host repeats the frame). The
 * watchdog is kicked before each page, which outlasts it many times over (wdt.c). QEMU's NVMC is
 * instant and ANDs each write into the old word, as the chip does. */
#include "port.h"

#define REGION_START 0x30000u
#define REGION_SIZE  0x10000u

const uint32_t slot_flash_size = REGION_SIZE;
const uint32_t slot_page_size = NVMC_PAGE_SIZE;

static int in_region(uint32_t address, uint32_t length)
{
    return address <= REGION_SIZE && length <= REGION_SIZE - address;
}

static void wait_ready(void)
{
    while (!(NVMC_READY & NVMC_READY_READY)) {}
}

int slot_flash_read(void *ctx, uint32_t address, uint8_t *out, uint32_t length)
{
    uint32_t from = REGION_START + address;
    (void)ctx;
    if (!in_region(address, length)) return -1;
    for (; length; length--, from++) *out++ = FLASH_BYTE(from);
    return 0;
}

int slot_flash_write(void *ctx, uint32_t address, const uint8_t *data, uint32_t length)
{
    uint32_t to = REGION_START + address;
    (void)ctx;
    if (!in_region(address, length)) return -1;
    NVMC_CONFIG = NVMC_CONFIG_WEN;
    while (length) {
        uint32_t word = 0xFFFFFFFFu, shift = 8u * (to & 3u);
        /* the bytes of this word, in place; the others 0xFF */
        do {
            word &= ~(0xFFu << shift) | ((uint32_t)*data++ << shift);
            shift += 8u;
            to++, length--;
        } while (length && (to & 3u));
        wait_ready();
        FLASH_WORD((to - 1u) & ~3u) = word;
    }
    wait_ready();
    NVMC_CONFIG = NVMC_CONFIG_REN;
    return 0;
}

int slot_flash_erase(void *ctx, uint32_t page_address)
{
    (void)ctx;
    if (page_address % NVMC_PAGE_SIZE != 0u || page_address >= REGION_SIZE) return -1;
    watchdog_kick();
    NVMC_CONFIG = NVMC_CONFIG_EEN;
    wait_ready();
    NVMC_ERASEPAGE = REGION_START + page_address;
    wait_ready();
    NVMC_CONFIG = NVMC_CONFIG_REN;
    return 0;
}
