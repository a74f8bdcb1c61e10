/* The nRF51822 registers and bits this port uses, each defined once, named as in Nordic's nRF51
 * Series Reference Manual v3.0 (RM; the section of each peripheral beside it) and the nRF51822
 * Product Specification v3.1 (PS), plus the Cortex-M0's own (ARMv6-M Architecture Reference Manual,
 * B3). No vendor SDK: a register is a volatile 32-bit word at its address. Only what the port
 * touches is here.
 *
 * Every nRF51 peripheral has the same shape (RM §10, "Peripheral interface"; the offsets are in each
 * chapter's register overview): tasks are write-1 registers from offset 0x000, events
 * read-1/write-0 registers from 0x100, SHORTS at 0x200, INTENSET/INTENCLR at 0x304/0x308, ENABLE at
 * 0x500. */
#ifndef NRF51_REGS_H
#define NRF51_REGS_H

#include <stdint.h>

/* The host tests (Firmware-ref/tests/nrf51) build the port's files with NRF51_REGISTER_MODEL: every
 * access then goes through the register model, which sees each read and write in order. */
#ifdef NRF51_REGISTER_MODEL
volatile uint32_t *nrf51_model_register(uint32_t address);
#define NRF51_REG(address) (*nrf51_model_register(address))
#else
#define NRF51_REG(address) (*(volatile uint32_t *)(address))
#endif

#define TASK_TRIGGER 1u /* a task starts when 1 is written to it */

/* ---- CLOCK (RM §13): the 16 MHz crystal (the micro:bit's X1) for the timers and the UART ---- */
#define CLOCK_BASE                0x40000000u
#define CLOCK_TASKS_HFCLKSTART    NRF51_REG(CLOCK_BASE + 0x000u)
#define CLOCK_EVENTS_HFCLKSTARTED NRF51_REG(CLOCK_BASE + 0x100u)

/* ---- FICR (RM §7): the chip's 64-bit device ID, for the serial number ---- */
#define FICR_DEVICEID(n) NRF51_REG(0x10000060u + 4u * (n))

/* ---- GPIO (RM §14) ---- */
#define GPIO_BASE                  0x50000000u
#define GPIO_OUTSET                NRF51_REG(GPIO_BASE + 0x508u)
#define GPIO_PIN_CNF(pin)          NRF51_REG(GPIO_BASE + 0x700u + 4u * (pin))
#define GPIO_PIN_CNF_DIR_OUTPUT    (1u << 0)
#define GPIO_PIN_CNF_INPUT_CONNECT 0u        /* INPUT = 0: the input buffer is connected */
#define GPIO_PIN_CNF_DRIVE_S0D1    (6u << 8) /* standard 0, disconnect 1: open drain (TWI: RM §28.2, Table 258) */

/* ---- NVMC (RM §6): flash pages of 1,024 bytes on the nRF51822-QFAA (PS §8.1) ---- */
#define NVMC_BASE        0x4001E000u
#define NVMC_READY       NRF51_REG(NVMC_BASE + 0x400u)
#define NVMC_READY_READY (1u << 0)
#define NVMC_CONFIG      NRF51_REG(NVMC_BASE + 0x504u)
#define NVMC_CONFIG_REN  0u /* read only */
#define NVMC_CONFIG_WEN  1u /* write enabled */
#define NVMC_CONFIG_EEN  2u /* erase enabled */
#define NVMC_ERASEPAGE   NRF51_REG(NVMC_BASE + 0x508u)
#define NVMC_PAGE_SIZE   1024u
/* The flash as data: a 32-bit word store programs it while CONFIG is WEN (RM §6.1.1). */
#ifdef NRF51_REGISTER_MODEL
volatile uint32_t *nrf51_model_flash(uint32_t address);
#define FLASH_WORD(address) (*nrf51_model_flash(address))
#define FLASH_BYTE(address) ((uint8_t)(*nrf51_model_flash((address) & ~3u) >> (8u * ((address)&3u))))
#else
#define FLASH_WORD(address) (*(volatile uint32_t *)(address))
#define FLASH_BYTE(address) (*(const volatile uint8_t *)(address))
#endif

/* ---- UART0 (RM §29), IRQ 2 ---- */
#define UART0_BASE               0x40002000u
#define UART0_IRQn               2u
#define UART_TASKS_STARTRX       NRF51_REG(UART0_BASE + 0x000u)
#define UART_TASKS_STARTTX       NRF51_REG(UART0_BASE + 0x008u)
#define UART_EVENTS_RXDRDY       NRF51_REG(UART0_BASE + 0x108u)
#define UART_EVENTS_TXDRDY       NRF51_REG(UART0_BASE + 0x11Cu)
#define UART_EVENTS_ERROR        NRF51_REG(UART0_BASE + 0x124u)
#define UART_INTENSET            NRF51_REG(UART0_BASE + 0x304u)
#define UART_INTENCLR            NRF51_REG(UART0_BASE + 0x308u)
#define UART_INTEN_RXDRDY        (1u << 2)
#define UART_ERRORSRC            NRF51_REG(UART0_BASE + 0x480u)
#define UART_ENABLE              NRF51_REG(UART0_BASE + 0x500u)
#define UART_ENABLE_ENABLED      4u
#define UART_PSELTXD             NRF51_REG(UART0_BASE + 0x50Cu)
#define UART_PSELRXD             NRF51_REG(UART0_BASE + 0x514u)
#define UART_RXD                 NRF51_REG(UART0_BASE + 0x518u)
#define UART_TXD                 NRF51_REG(UART0_BASE + 0x51Cu)
#define UART_BAUDRATE            NRF51_REG(UART0_BASE + 0x524u)
#define UART_BAUDRATE_BAUD115200 0x01D7E000u /* RM §29.11, Table 287 (BAUDRATE): Baud115200 */

/* ---- TWI0 (RM §28), the edge connector's I2C (P19 = P0.00 SCL, P20 = P0.30 SDA) ---- */
#define TWI0_BASE         0x40003000u
#define TWI_TASKS_STARTRX NRF51_REG(TWI0_BASE + 0x000u)
#define TWI_TASKS_STARTTX NRF51_REG(TWI0_BASE + 0x008u)
#define TWI_TASKS_STOP    NRF51_REG(TWI0_BASE + 0x014u)
#define TWI_TASKS_RESUME  NRF51_REG(TWI0_BASE + 0x020u)
/* The events by address (twi0.c waits on any of them), and as registers. */
#define TWI_EVENT_STOPPED     (TWI0_BASE + 0x104u)
#define TWI_EVENT_RXDREADY    (TWI0_BASE + 0x108u)
#define TWI_EVENT_TXDSENT     (TWI0_BASE + 0x11Cu)
#define TWI_EVENT_ERROR       (TWI0_BASE + 0x124u)
#define TWI_EVENTS_STOPPED    NRF51_REG(TWI_EVENT_STOPPED)
#define TWI_EVENTS_RXDREADY   NRF51_REG(TWI_EVENT_RXDREADY)
#define TWI_EVENTS_TXDSENT    NRF51_REG(TWI_EVENT_TXDSENT)
#define TWI_EVENTS_ERROR      NRF51_REG(TWI_EVENT_ERROR)
#define TWI_SHORTS            NRF51_REG(TWI0_BASE + 0x200u)
#define TWI_SHORTS_BB_SUSPEND (1u << 0) /* suspend at each byte boundary: the next byte waits for RESUME */
#define TWI_SHORTS_BB_STOP    (1u << 1) /* a STOP at the next byte boundary */
#define TWI_ERRORSRC          NRF51_REG(TWI0_BASE + 0x4C4u)
#define TWI_ERRORSRC_OVERRUN  (1u << 0)
#define TWI_ERRORSRC_ANACK    (1u << 1) /* the address was not acknowledged */
#define TWI_ERRORSRC_DNACK    (1u << 2) /* a data byte was not acknowledged */
#define TWI_ENABLE            NRF51_REG(TWI0_BASE + 0x500u)
#define TWI_ENABLE_ENABLED    5u
#define TWI_PSELSCL           NRF51_REG(TWI0_BASE + 0x508u)
#define TWI_PSELSDA           NRF51_REG(TWI0_BASE + 0x50Cu)
#define TWI_RXD               NRF51_REG(TWI0_BASE + 0x518u)
#define TWI_TXD               NRF51_REG(TWI0_BASE + 0x51Cu)
#define TWI_FREQUENCY         NRF51_REG(TWI0_BASE + 0x524u)
#define TWI_FREQUENCY_K400    0x06680000u /* RM §28.8, Table 271 (FREQUENCY): K400, 400 kbps */
#define TWI_ADDRESS           NRF51_REG(TWI0_BASE + 0x588u)
/* Power to the peripheral (PAN-036 of the nRF51822 errata: a hung TWI comes back only after
 * POWER 0 then 1, which also resets its registers). */
#define TWI_POWER NRF51_REG(TWI0_BASE + 0xFFCu)

/* ---- TIMER0/1 (RM §18), IRQ 8/9: TIMER0 is the 32-bit board time at 1 MHz with the 1 ms compare;
 * TIMER1 (16 bits) counts the QEMU bench's instructions ---- */
#define TIMER0_BASE                   0x40008000u
#define TIMER1_BASE                   0x40009000u
#define TIMER0_IRQn                   8u
#define TIMER_TASKS_START(base)       NRF51_REG((base) + 0x000u)
#define TIMER_TASKS_CLEAR(base)       NRF51_REG((base) + 0x00Cu)
#define TIMER_TASKS_CAPTURE(base, n)  NRF51_REG((base) + 0x040u + 4u * (n))
#define TIMER_EVENTS_COMPARE(base, n) NRF51_REG((base) + 0x140u + 4u * (n))
#define TIMER_INTENSET(base)          NRF51_REG((base) + 0x304u)
#define TIMER_INTEN_COMPARE(n)        (1u << (16u + (n)))
#define TIMER_MODE(base)              NRF51_REG((base) + 0x504u)
#define TIMER_MODE_TIMER              0u
#define TIMER_BITMODE(base)           NRF51_REG((base) + 0x508u)
#define TIMER_BITMODE_16BIT           0u
#define TIMER_BITMODE_32BIT           3u /* TIMER0 only, TIMER1/2 16 bits at most (PS; RM §18.1 defers to it) */
#define TIMER_PRESCALER(base)         NRF51_REG((base) + 0x510u)
#define TIMER_CC(base, n)             NRF51_REG((base) + 0x540u + 4u * (n))
/* f_TIMER = 16 MHz / 2^PRESCALER (RM §18.1, Equation 1): 4 gives 1 MHz, 0 the full 16 MHz. */
#define TIMER_PRESCALER_1MHZ  4u
#define TIMER_PRESCALER_16MHZ 0u

/* ---- WDT (RM §20) ---- */
#define WDT_BASE              0x40010000u
#define WDT_TASKS_START       NRF51_REG(WDT_BASE + 0x000u)
#define WDT_RUNSTATUS         NRF51_REG(WDT_BASE + 0x400u)
#define WDT_CRV               NRF51_REG(WDT_BASE + 0x504u)
#define WDT_RREN              NRF51_REG(WDT_BASE + 0x508u)
#define WDT_RREN_RR0          (1u << 0)
#define WDT_CONFIG            NRF51_REG(WDT_BASE + 0x50Cu)
#define WDT_CONFIG_SLEEP_RUN  (1u << 0) /* keep counting while the CPU sleeps (wfi) */
#define WDT_CONFIG_HALT_PAUSE 0u        /* HALT = 0: paused while a debugger halts the CPU */
#define WDT_RR0               NRF51_REG(WDT_BASE + 0x600u)
#define WDT_RR_RELOAD         0x6E524635u /* RM §20.1.1: the only value that reloads the counter */
/* Timeout = (CRV + 1) / 32,768 s (RM §20.1, on the 32.768 kHz LFCLK, which the WDT starts itself). */
#define WDT_LFCLK_HZ 32768u

/* ---- Cortex-M0 core (ARMv6-M ARM B3.3, B3.2) ---- */
#define NVIC_ISER             NRF51_REG(0xE000E100u)
#define NVIC_ICER             NRF51_REG(0xE000E180u)
#define SCB_AIRCR             NRF51_REG(0xE000ED0Cu)
#define SCB_AIRCR_VECTKEY     (0x05FAu << 16)
#define SCB_AIRCR_SYSRESETREQ (1u << 2)

#endif
