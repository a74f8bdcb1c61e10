/* A register-level model of the nRF51822 peripherals the micro:bit port uses that QEMU's `microbit`
 * machine does not model (or models as a stub), for the port's host tests (ports/nrf51-microbit
 * built with NRF51_REGISTER_MODEL): TWI0 as the RM §28 describes it, with one slave on the bus (a
 * DRV2605L-like register file at a chosen address that may refuse a data byte, or hold SCL low so
 * that nothing completes), the WDT (RM §20) counting on its 32.768 kHz clock, and TIMER0's capture
 * (board time, for the drivers' timeouts).
 *
 * Each access to a register goes through nrf51_model_register, which hands out the register's word;
 * what the port did with it (read it, or wrote a new value) is seen at the next access or at
 * nrf51_model_sync. Every access takes NRF51_MODEL_ACCESS_NS of model time. The model counts what
 * the reference manual forbids (violations) for the tests to check. */
#ifndef MODEL_NRF51_H
#define MODEL_NRF51_H

#include <stdint.h>

#define NRF51_MODEL_ACCESS_NS 125u   /* two cycles at 16 MHz, roughly */
#define NRF51_MODEL_BYTE_NS   22500u /* nine bit times at 400 kHz */
#define NRF51_MODEL_CELLS     64u

typedef struct nrf51_model_cell {
    uint32_t address;
    uint32_t value;
} nrf51_model_cell;

typedef struct nrf51_model {
    uint64_t now_ns;
    nrf51_model_cell cells[NRF51_MODEL_CELLS];
    unsigned cell_count;
    volatile uint32_t *pending; /* the cell handed out last, and its value then */
    uint32_t pending_address, pending_value;

    /* TWI0's bus */
    int state;              /* MODEL_TWI_* (model_nrf51.c) */
    uint64_t busy_until_ns; /* the byte (or STOP) on the bus completes then */
    int txd_written;        /* TXD holds a byte not yet sent */
    int addressed;          /* the current transfer's address was acknowledged */
    int suspended;          /* BB_SUSPEND held the bus after a byte */
    uint8_t slave_address;  /* the chip on the bus */
    uint8_t slave_reg[256];
    uint8_t slave_pointer;
    int slave_first_byte;     /* the next byte written is the register address */
    uint32_t slave_nack_byte; /* refuse the n-th data byte of each write (1 = the register address); 0: never */
    int slave_holds_scl;      /* SCL held low: nothing on the bus completes */
    uint32_t data_bytes;      /* of the current write */
    uint32_t writes;          /* register writes the slave took */
    uint32_t stops, starts, power_cycles;
    uint32_t overruns;            /* a byte received while RXD still held the last one unread */
    uint32_t task_while_disabled; /* a TWI task while ENABLE was not 5 */
    uint32_t pins_after_enable;   /* PSEL/PIN_CNF of SCL or SDA changed while the TWI was enabled */

    /* TIMER0 */
    uint64_t stall_after_capture_ns; /* the next capture's caller is then held this long (once) */

    /* WDT */
    int wdt_running, wdt_fired;
    uint64_t wdt_reload_ns; /* the counter was (re)loaded then */
    uint32_t wdt_kicks, wdt_bad_kicks, wdt_config_writes_while_running;
} nrf51_model;

extern nrf51_model nrf51;

/* Power-on: registers at their reset values, a DRV2605L at 0x5A on an idle bus, the WDT stopped. */
void nrf51_model_reset(void);
/* Settles the last access (the port returned to the test). */
void nrf51_model_sync(void);
/* A register's value as the model holds it (no access). */
uint32_t nrf51_model_peek(uint32_t address);
/* Time passes without an access. */
void nrf51_model_advance(uint64_t ns);
/* The WDT's timeout from its CRV (ns). */
uint64_t nrf51_model_wdt_timeout_ns(void);

#endif
