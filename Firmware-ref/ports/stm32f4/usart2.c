/* USART2 on PA2 (TX) / PA3 (RX), alternate function 7: the host link, 115200 8N1 (the Nucleo's
 * ST-LINK virtual COM port; QEMU's second -serial). Receiving by the RXNE interrupt, which hands
 * each byte to the core; sending polled on TXE, because QEMU never raises the TXE or TC interrupt
 * and the core's frames are short (a 64-byte payload is under 7 ms at 115200). */
#include "port.h"

#define BAUD 115200u

static thr_core *receiver;

#if THRUM_QEMU
/* QEMU's test hook for the watchdog: this text on the link (never part of a valid frame: the core
 * drops it as a bad piece) makes the main loop stall, so the software watchdog resets the board. */
static const char stall_text[] = "THRUM-QEMU-STALL";
static uint8_t stall_matched;

static void watch_for_stall(uint8_t byte)
{
    if (byte == (uint8_t)stall_text[stall_matched]) {
        if (stall_text[++stall_matched] == '\0') {
            watchdog_stall_requested = 1;
            stall_matched = 0;
        }
    } else {
        stall_matched = byte == (uint8_t)stall_text[0] ? 1u : 0u;
    }
}
#endif

void usart2_init(thr_core *core)
{
    receiver = core;
    /* alternate function and pull first, the mode last: no glitch reaches the virtual COM port */
    GPIO_AFRL(GPIOA_BASE) =
        (GPIO_AFRL(GPIOA_BASE) & ~((0xFu << 8) | (0xFu << 12))) | (GPIO_AF7_USART << 8) | (GPIO_AF7_USART << 12);
    GPIO_PUPDR(GPIOA_BASE) = (GPIO_PUPDR(GPIOA_BASE) & ~(3u << 6)) | (GPIO_PULL_UP << 6); /* RX idles high */
    GPIO_MODER(GPIOA_BASE) =
        (GPIO_MODER(GPIOA_BASE) & ~((3u << 4) | (3u << 6))) | (GPIO_MODE_AF << 4) | (GPIO_MODE_AF << 6);
    USART_BRR(USART2_BASE) = (APB1_CLOCK_HZ + BAUD / 2u) / BAUD; /* oversampling by 16: 0x16D */
    USART_CR1(USART2_BASE) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE | USART_CR1_RXNEIE;
    /* A byte that came before the interrupt was enabled would hold RXNE without raising it (QEMU
     * delivers nothing more until DR is read): drop it; its frame fails and the host repeats it. */
    (void)USART_SR(USART2_BASE);
    (void)USART_DR(USART2_BASE);
    NVIC_ISER(USART2_IRQn / 32u) = 1u << (USART2_IRQn % 32u);
}

/* In RAM (.ramfunc), with the core's thr_core_rx_byte (sections.ld): bytes keep arriving during a
 * flash erase (flash.c). */
void USART2_IRQHandler(void);
RAMFUNC void USART2_IRQHandler(void)
{
    uint32_t status = USART_SR(USART2_BASE);
    /* reading SR then DR clears RXNE and an overrun; a lost byte fails its frame's CRC and the
     * host repeats the frame */
    if (status & (USART_SR_RXNE | USART_SR_ORE)) {
        uint8_t byte = (uint8_t)USART_DR(USART2_BASE);
        if (!(status & USART_SR_RXNE)) return;
#if THRUM_QEMU
        watch_for_stall(byte);
#endif
        thr_core_rx_byte(receiver, byte);
    }
}

void usart2_write(const uint8_t *data, uint32_t length)
{
    while (length--) {
        while (!(USART_SR(USART2_BASE) & USART_SR_TXE)) {}
        USART_DR(USART2_BASE) = *data++;
    }
}

/* The core's critical section around its receive ring: mask this interrupt only, so SysTick keeps
 * the clock. Returns whether it was enabled. */
uint32_t usart2_irq_mask(void)
{
    uint32_t enabled = (NVIC_ISER(USART2_IRQn / 32u) >> (USART2_IRQn % 32u)) & 1u;
    NVIC_ICER(USART2_IRQn / 32u) = 1u << (USART2_IRQn % 32u);
    __asm__ volatile("dsb\n isb" ::: "memory"); /* the mask is in effect before the ring is touched */
    return enabled;
}

void usart2_irq_restore(uint32_t state)
{
    if (state) NVIC_ISER(USART2_IRQn / 32u) = 1u << (USART2_IRQn % 32u);
}
