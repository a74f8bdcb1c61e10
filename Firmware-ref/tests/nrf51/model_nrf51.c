/* The nRF51 register model (model_nrf51.h). */
#include "model_nrf51.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrf51_regs.h"

/* Here a register macro names its address. */
#undef NRF51_REG
#define NRF51_REG(address) (address)

enum {
    TWI_IDLE,
    TWI_ADDRESS_TX, /* START and the address for a write are on the bus */
    TWI_TX_WAIT,    /* SCL held low until TXD is written */
    TWI_TX_BYTE,
    TWI_ADDRESS_RX, /* (repeated) START and the address for a read */
    TWI_RX_BYTE,
    TWI_SUSPENDED, /* BB_SUSPEND: held after a byte until RESUME */
    TWI_HELD,      /* a NACK: the bus waits for STOP */
    TWI_STOPPING
};

#define TXD_EMPTY 0xFFFFFFFFu /* TXD's cell when no byte waits: any byte written differs */
#define STOP_NS   2500u

nrf51_model nrf51;

static volatile uint32_t *cell(uint32_t address)
{
    unsigned i;
    for (i = 0; i < nrf51.cell_count; i++) {
        if (nrf51.cells[i].address == address) return &nrf51.cells[i].value;
    }
    if (nrf51.cell_count == NRF51_MODEL_CELLS) {
        fprintf(stderr, "model_nrf51: more than %u registers\n", NRF51_MODEL_CELLS);
        abort();
    }
    nrf51.cells[nrf51.cell_count].address = address;
    nrf51.cells[nrf51.cell_count].value = 0;
    return &nrf51.cells[nrf51.cell_count++].value;
}

static uint32_t get(uint32_t address)
{
    return *cell(address);
}

static void set(uint32_t address, uint32_t value)
{
    *cell(address) = value;
}

uint32_t nrf51_model_peek(uint32_t address)
{
    return get(address);
}

void nrf51_model_reset(void)
{
    memset(&nrf51, 0, sizeof nrf51);
    nrf51.slave_address = 0x5Au;
    nrf51.slave_first_byte = 1;
    set(TWI_POWER, 1u); /* POWER */
    set(TWI_TXD, TXD_EMPTY);
}

uint64_t nrf51_model_wdt_timeout_ns(void)
{
    return ((uint64_t)get(WDT_CRV) + 1u) * 1000000000u / WDT_LFCLK_HZ;
}

/* ---- TWI0 ---- */

static void twi_byte(int next_state)
{
    nrf51.state = next_state;
    nrf51.busy_until_ns = nrf51.now_ns + NRF51_MODEL_BYTE_NS;
}

static void twi_error(uint32_t source)
{
    set(TWI_ERRORSRC, get(TWI_ERRORSRC) | source);
    set(TWI_EVENT_ERROR, 1);
    nrf51.state = TWI_HELD;
}

static void slave_take(uint8_t byte)
{
    if (nrf51.slave_first_byte) {
        nrf51.slave_pointer = byte;
        nrf51.slave_first_byte = 0;
    } else {
        nrf51.slave_reg[nrf51.slave_pointer++] = byte;
        nrf51.writes++;
    }
}

/* What the bus finishes by now. */
static void twi_progress(void)
{
    while (nrf51.state != TWI_IDLE && !nrf51.slave_holds_scl && nrf51.now_ns >= nrf51.busy_until_ns) {
        switch (nrf51.state) {
        case TWI_ADDRESS_TX:
        case TWI_ADDRESS_RX:
            if ((get(TWI_ADDRESS) & 0x7Fu) != nrf51.slave_address) {
                twi_error(TWI_ERRORSRC_ANACK);
                break;
            }
            nrf51.addressed = 1;
            if (nrf51.state == TWI_ADDRESS_TX) {
                nrf51.state = TWI_TX_WAIT;
            } else {
                twi_byte(TWI_RX_BYTE);
            }
            break;
        case TWI_TX_WAIT:
            if (!nrf51.txd_written) return;
            twi_byte(TWI_TX_BYTE);
            break;
        case TWI_TX_BYTE:
            nrf51.data_bytes++;
            nrf51.txd_written = 0;
            if (nrf51.slave_nack_byte == nrf51.data_bytes) {
                twi_error(TWI_ERRORSRC_DNACK);
                break;
            }
            slave_take((uint8_t)get(TWI_TXD));
            set(TWI_TXD, TXD_EMPTY);
            set(TWI_EVENT_TXDSENT, 1);
            nrf51.state = TWI_TX_WAIT;
            break;
        case TWI_RX_BYTE:
            if (get(TWI_EVENT_RXDREADY)) nrf51.overruns++; /* the last byte's event never handled */
            set(TWI_RXD, nrf51.slave_reg[nrf51.slave_pointer++]);
            set(TWI_EVENT_RXDREADY, 1);
            if (get(TWI_SHORTS) & TWI_SHORTS_BB_STOP) {
                nrf51.state = TWI_STOPPING;
                nrf51.busy_until_ns = nrf51.now_ns + STOP_NS;
            } else if (get(TWI_SHORTS) & TWI_SHORTS_BB_SUSPEND) {
                nrf51.state = TWI_SUSPENDED;
            } else {
                twi_byte(TWI_RX_BYTE);
            }
            break;
        case TWI_STOPPING:
            set(TWI_EVENT_STOPPED, 1);
            nrf51.stops++;
            nrf51.state = TWI_IDLE;
            break;
        default: /* suspended or held: waiting for the port */ return;
        }
    }
}

static void twi_task(uint32_t task)
{
    if (get(TWI_ENABLE) != TWI_ENABLE_ENABLED) {
        nrf51.task_while_disabled++;
        return;
    }
    switch (task) {
    case TWI_TASKS_STARTRX:
        if (nrf51.state == TWI_IDLE) nrf51.starts++;
        twi_byte(TWI_ADDRESS_RX);
        break;
    case TWI_TASKS_STARTTX:
        nrf51.starts++;
        nrf51.slave_first_byte = 1;
        nrf51.data_bytes = 0;
        twi_byte(TWI_ADDRESS_TX);
        break;
    case TWI_TASKS_STOP:
        if (nrf51.state != TWI_IDLE && nrf51.state != TWI_STOPPING) {
            nrf51.state = TWI_STOPPING;
            nrf51.busy_until_ns = nrf51.now_ns + STOP_NS;
        }
        break;
    case TWI_TASKS_RESUME:
        if (nrf51.state == TWI_SUSPENDED) twi_byte(TWI_RX_BYTE);
        break;
    default: break;
    }
}

/* POWER 0: the peripheral off, its registers back to reset. */
static void twi_power_off(void)
{
    unsigned i;
    for (i = 0; i < nrf51.cell_count; i++) {
        if (nrf51.cells[i].address >= TWI0_BASE && nrf51.cells[i].address < TWI0_BASE + 0x1000u)
            nrf51.cells[i].value = 0;
    }
    set(TWI_TXD, TXD_EMPTY);
    nrf51.state = TWI_IDLE;
    nrf51.txd_written = 0;
    nrf51.power_cycles++;
}

static int is_twi_pin(uint32_t address)
{
    return address == TWI_PSELSCL || address == TWI_PSELSDA || address == GPIO_PIN_CNF(0u) ||
           address == GPIO_PIN_CNF(30u);
}

/* ---- WDT ---- */

static void wdt_progress(void)
{
    if (nrf51.wdt_running && !nrf51.wdt_fired && nrf51.now_ns - nrf51.wdt_reload_ns >= nrf51_model_wdt_timeout_ns())
        nrf51.wdt_fired = 1;
}

/* ---- accesses ---- */

/* A write of `value` to `address` (`before`: the value the port saw). */
static void on_write(uint32_t address, uint32_t value, uint32_t before)
{
    if (address >= TWI0_BASE && address < TWI0_BASE + 0x100u && value == TASK_TRIGGER) {
        set(address, 0);
        twi_task(address);
    } else if (address == TWI_TXD) {
        nrf51.txd_written = 1;
    } else if (address == TWI_ERRORSRC) {
        set(address, before & ~value); /* ERRORSRC: write 1 to clear */
    } else if (address == TWI_POWER) {
        if (value == 0u && before != 0u) twi_power_off();
        set(address, value);
    } else if (address >= TIMER_TASKS_CAPTURE(TIMER0_BASE, 0u) && address <= TIMER_TASKS_CAPTURE(TIMER0_BASE, 3u) &&
               value == TASK_TRIGGER) {
        set(address, 0);
        set(TIMER_CC(TIMER0_BASE, (address - TIMER_TASKS_CAPTURE(TIMER0_BASE, 0u)) / 4u),
            (uint32_t)(nrf51.now_ns / 1000u));
        nrf51.now_ns += nrf51.stall_after_capture_ns; /* the CPU held before its next access */
        nrf51.stall_after_capture_ns = 0;
    } else if (address == WDT_TASKS_START) {
        set(address, 0);
        if (!nrf51.wdt_running) {
            nrf51.wdt_running = 1;
            nrf51.wdt_reload_ns = nrf51.now_ns;
            set(WDT_RUNSTATUS, 1); /* RUNSTATUS */
        }
    } else if (address == WDT_CRV || address == WDT_RREN || address == WDT_CONFIG) {
        if (nrf51.wdt_running) {
            nrf51.wdt_config_writes_while_running++;
            set(address, before); /* ignored once running */
        }
    } else if (address == WDT_RR0) {
        if (value == WDT_RR_RELOAD && (get(WDT_RREN) & WDT_RREN_RR0)) {
            nrf51.wdt_kicks++;
            if (!nrf51.wdt_fired) nrf51.wdt_reload_ns = nrf51.now_ns;
        } else {
            nrf51.wdt_bad_kicks++;
        }
        set(address, 0);
    }
    if (is_twi_pin(address) && get(TWI_ENABLE) == TWI_ENABLE_ENABLED) nrf51.pins_after_enable++;
}

void nrf51_model_sync(void)
{
    if (nrf51.pending) {
        uint32_t value = *nrf51.pending;
        nrf51.pending = 0;
        if (value != nrf51.pending_value) on_write(nrf51.pending_address, value, nrf51.pending_value);
    }
    twi_progress();
    wdt_progress();
}

void nrf51_model_advance(uint64_t ns)
{
    nrf51_model_sync();
    nrf51.now_ns += ns;
    twi_progress();
    wdt_progress();
}

volatile uint32_t *nrf51_model_register(uint32_t address)
{
    volatile uint32_t *c;
    nrf51_model_sync();
    nrf51.now_ns += NRF51_MODEL_ACCESS_NS;
    twi_progress();
    wdt_progress();
    c = cell(address);
    nrf51.pending = c;
    nrf51.pending_address = address;
    nrf51.pending_value = *c;
    return c;
}
