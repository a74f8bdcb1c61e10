/* UART0 on P0.24 (TX) / P0.25 (RX): the host link, 115200 8N1, which the micro:bit's interface chip
 * turns into a USB serial port (RM §29). Receiving by the RXDRDY interrupt, which hands each byte to
 * the core; sending polled on TXDRDY (the core's frames are short).
 *
 * Flow control: while the core's receive ring is full the interrupt leaves the byte in RXD and
 * masks itself, so the UART's 6-byte FIFO holds what follows (RM §29.5); uart0_resume, after the
 * main loop's poll has emptied the ring, takes bytes again. Under QEMU that holds the host back and
 * loses nothing; on the chip the FIFO overflows after 6 more bytes, the frame fails its CRC and the
 * host repeats it, as for any lost byte. */
#include "port.h"

#define PIN_TXD 24u
#define PIN_RXD 25u

static thr_core *receiver;

static int ring_full(void)
{
    const thr_link *link = &receiver->link;
    return (uint16_t)((link->ring_head + 1u) % THR_RX_RING) == link->ring_tail;
}

void uart0_init(thr_core *core)
{
    receiver = core;
    GPIO_OUTSET = 1u << PIN_TXD; /* TX idles high before the pin becomes an output */
    GPIO_PIN_CNF(PIN_TXD) = GPIO_PIN_CNF_DIR_OUTPUT;
    GPIO_PIN_CNF(PIN_RXD) = GPIO_PIN_CNF_INPUT_CONNECT;
    UART_PSELTXD = PIN_TXD;
    UART_PSELRXD = PIN_RXD;
    UART_BAUDRATE = UART_BAUDRATE_BAUD115200;
    UART_ENABLE = UART_ENABLE_ENABLED;
    UART_EVENTS_RXDRDY = 0;
    UART_EVENTS_TXDRDY = 0;
    UART_TASKS_STARTTX = TASK_TRIGGER;
    UART_TASKS_STARTRX = TASK_TRIGGER;
    UART_INTENSET = UART_INTEN_RXDRDY;
    NVIC_ISER = 1u << UART0_IRQn;
}

/* RXDRDY stays set while the FIFO holds bytes: one byte per event, cleared before RXD is read so that
 * the next byte raises it again (RM §29.5). An error (overrun, framing) is cleared and forgotten: the
 * frame fails its CRC. */
void UART0_IRQHandler(void);
void UART0_IRQHandler(void)
{
    if (UART_EVENTS_ERROR) {
        UART_EVENTS_ERROR = 0;
        UART_ERRORSRC = UART_ERRORSRC; /* its bits clear by writing 1 */
    }
    while (UART_EVENTS_RXDRDY) {
        if (ring_full()) {
            UART_INTENCLR = UART_INTEN_RXDRDY; /* the byte waits in RXD until uart0_resume */
            return;
        }
        UART_EVENTS_RXDRDY = 0;
        thr_core_rx_byte(receiver, (uint8_t)UART_RXD);
    }
}

void uart0_resume(void)
{
    if (!ring_full()) UART_INTENSET = UART_INTEN_RXDRDY; /* a waiting byte interrupts at once */
}

void uart0_write(void *ctx, const uint8_t *data, uint32_t length)
{
    (void)ctx;
    while (length--) {
        UART_TXD = *data++;
        while (!UART_EVENTS_TXDRDY) {}
        UART_EVENTS_TXDRDY = 0;
    }
}

/* The core's critical section around its receive ring: this interrupt only, so TIMER0 keeps waking
 * the loop. Returns whether it was enabled. */
uint32_t uart0_irq_mask(void *ctx)
{
    uint32_t enabled = (NVIC_ISER >> UART0_IRQn) & 1u;
    (void)ctx;
    NVIC_ICER = 1u << UART0_IRQn;
    __asm__ volatile("dsb\n isb" ::: "memory"); /* the mask is in effect before the ring is touched */
    return enabled;
}

void uart0_irq_restore(void *ctx, uint32_t state)
{
    (void)ctx;
    if (state) NVIC_ISER = 1u << UART0_IRQn;
}
