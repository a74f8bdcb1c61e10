/* The micro:bit port's code that QEMU does not run, against the register model (model_nrf51.h):
 * QEMU's TWI is a stub that never refuses or hangs and its WDT is absent. Built from the port's own
 * twi0.c, wdt.c and tick.c with NRF51_REGISTER_MODEL; part of `make test`.
 *   twi:      writes and reads after a write (repeated START, BB_SUSPEND then BB_STOP), 400 kHz, the
 *             pins open drain before the TWI is enabled; an address NACK and a data NACK reported as
 *             THR_I2C_NACK with a STOP and ERRORSRC cleared; a slave holding SCL: THR_I2C_TIMEOUT
 *             within the stated bound, the peripheral power-cycled, then transfers work again
 *   watchdog: 1 s on the 32.768 kHz clock, RR[0] only, running in sleep; kicks hold it off, silence
 *             fires it; started once (its configuration is never written while it runs)
 *   tick:     a late TIMER0 interrupt sets the compare to the next millisecond boundary ahead; so does
 *             one held between its capture and its compare write until the count passed the compare */
#include <string.h>

#include "model_nrf51.h"
#include "port.h"
#include "test.h"

/* Here a register macro names its address (for nrf51_model_peek), not an access. */
#undef NRF51_REG
#define NRF51_REG(address) (address)
#define PEEK(reg)          nrf51_model_peek(reg)

void TIMER0_IRQHandler(void);

static void boot(void)
{
    nrf51_model_reset();
    tick_init();
    twi_init();
    nrf51_model_sync();
}

static int transfer(uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    int status = twi_transfer(0, 0, address, tx, tx_length, rx, rx_length);
    nrf51_model_sync();
    return status;
}

/* ---- TWI ---- */

static void twi_write(void)
{
    static const uint8_t tx[] = { 0x01, 0x05, 0x06 };
    boot();
    CHECK_EQ(PEEK(TWI_FREQUENCY), TWI_FREQUENCY_K400);
    CHECK_EQ(PEEK(TWI_PSELSCL), 0u);
    CHECK_EQ(PEEK(TWI_PSELSDA), 30u);
    CHECK_EQ(PEEK(GPIO_PIN_CNF(0u)), GPIO_PIN_CNF_DRIVE_S0D1); /* open drain, input connected */
    CHECK_EQ(PEEK(GPIO_PIN_CNF(30u)), GPIO_PIN_CNF_DRIVE_S0D1);
    CHECK_EQ(nrf51.pins_after_enable, 0u);
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_OK);
    CHECK_EQ(nrf51.slave_reg[1], 0x05u);
    CHECK_EQ(nrf51.slave_reg[2], 0x06u);
    CHECK_EQ(nrf51.writes, 2u);
    CHECK_EQ(nrf51.starts, 1u);
    CHECK_EQ(nrf51.stops, 1u);
    CHECK_EQ(nrf51.task_while_disabled, 0u);
}

static void twi_read_after_write(void)
{
    static const uint8_t reg = 0x00;
    uint8_t rx[3] = { 0, 0, 0 };
    boot();
    nrf51.slave_reg[0] = 0xE0;
    nrf51.slave_reg[1] = 0x40;
    nrf51.slave_reg[2] = 0x02;
    CHECK_EQ(transfer(0x5A, &reg, 1, rx, 3), THR_I2C_OK);
    CHECK_EQ(rx[0], 0xE0u);
    CHECK_EQ(rx[1], 0x40u);
    CHECK_EQ(rx[2], 0x02u);
    CHECK_EQ(nrf51.overruns, 0u); /* each byte read before the next was received */
    CHECK_EQ(nrf51.stops, 1u);
    CHECK_EQ(PEEK(TWI_SHORTS), 0u);
    memset(rx, 0, sizeof rx);
    CHECK_EQ(transfer(0x5A, &reg, 1, rx, 1), THR_I2C_OK); /* one byte: BB_STOP from the start */
    CHECK_EQ(rx[0], 0xE0u);
    CHECK_EQ(nrf51.stops, 2u);
    CHECK_EQ(nrf51.overruns, 0u);
}

static void twi_address_nack(void)
{
    static const uint8_t tx[] = { 0x01, 0x00 };
    uint8_t rx = 0;
    boot();
    CHECK_EQ(transfer(0x5B, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    CHECK_EQ(nrf51.stops, 1u); /* the bus released */
    CHECK_EQ(PEEK(TWI_ERRORSRC), 0u);
    CHECK_EQ(PEEK(TWI_EVENTS_ERROR), 0u);
    CHECK_EQ(nrf51.writes, 0u);
    CHECK_EQ(transfer(0x5B, 0, 0, &rx, 1), THR_I2C_NACK); /* a read's address too */
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_OK);
    CHECK_EQ(nrf51.writes, 1u);
    CHECK_EQ(nrf51.power_cycles, 0u); /* a NACK is no hang */
}

static void twi_data_nack(void)
{
    static const uint8_t tx[] = { 0x16, 0x54, 0x89 };
    boot();
    nrf51.slave_nack_byte = 2; /* the first value byte refused */
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    CHECK_EQ(nrf51.stops, 1u);
    CHECK_EQ(PEEK(TWI_ERRORSRC), 0u);
    CHECK_EQ(nrf51.writes, 0u);
    nrf51.slave_nack_byte = 3; /* the last byte refused: seen while the transfer stops */
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    CHECK_EQ(PEEK(TWI_ERRORSRC), 0u);
    nrf51.slave_nack_byte = 0;
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_OK);
    CHECK_EQ(nrf51.slave_reg[0x17], 0x89u);
}

static void twi_timeout(void)
{
    static const uint8_t tx[] = { 0x02, 0x40 };
    uint8_t rx = 0;
    uint64_t start;
    boot();
    nrf51.slave_holds_scl = 1;
    start = nrf51.now_ns;
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_TIMEOUT);
    /* the stated bound: TWI_TIMEOUT_US for the wait that hung, and a little for the rest */
    CHECK(nrf51.now_ns - start <= (TWI_TIMEOUT_US + 100u) * 1000u);
    CHECK(nrf51.now_ns - start >= TWI_TIMEOUT_US * 1000u);
    CHECK_EQ(nrf51.power_cycles, 1u);
    CHECK_EQ(PEEK(TWI_ENABLE), TWI_ENABLE_ENABLED); /* configured again after the power cycle */
    CHECK_EQ(PEEK(TWI_FREQUENCY), TWI_FREQUENCY_K400);
    start = nrf51.now_ns;
    CHECK_EQ(transfer(0x5A, tx, 1, &rx, 1), THR_I2C_TIMEOUT); /* a read hangs as well */
    CHECK(nrf51.now_ns - start <= (TWI_TIMEOUT_US + 100u) * 1000u);
    nrf51.slave_holds_scl = 0; /* the slave lets go */
    CHECK_EQ(transfer(0x5A, tx, sizeof tx, 0, 0), THR_I2C_OK);
    CHECK_EQ(nrf51.slave_reg[2], 0x40u);
}

static void twi_other_bus(void)
{
    static const uint8_t tx[] = { 0x01, 0x00 };
    boot();
    CHECK_EQ(twi_transfer(0, 1, 0x5A, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    nrf51_model_sync();
    CHECK_EQ(nrf51.starts, 0u);
}

/* ---- watchdog ---- */

static void watchdog_runs(void)
{
    int i;
    boot();
    watchdog_start();
    nrf51_model_sync();
    CHECK(nrf51.wdt_running);
    CHECK_EQ(PEEK(WDT_CRV), 32767u); /* (32,767 + 1) / 32,768 Hz = 1 s */
    CHECK_EQ(nrf51_model_wdt_timeout_ns(), 1000000000u);
    CHECK_EQ(PEEK(WDT_RREN), WDT_RREN_RR0);
    CHECK_EQ(PEEK(WDT_CONFIG), WDT_CONFIG_SLEEP_RUN);
    for (i = 0; i < 10; i++) { /* kicked every 900 ms for 9 s */
        nrf51_model_advance(900000000u);
        watchdog_kick();
        nrf51_model_sync();
    }
    CHECK(!nrf51.wdt_fired);
    CHECK_EQ(nrf51.wdt_kicks, 10u);
    CHECK_EQ(nrf51.wdt_bad_kicks, 0u);
    watchdog_start(); /* after a reset that left it running: nothing written */
    nrf51_model_sync();
    CHECK_EQ(nrf51.wdt_config_writes_while_running, 0u);
    nrf51_model_advance(990000000u);
    CHECK(!nrf51.wdt_fired);
    nrf51_model_advance(20000000u); /* 1.01 s without a kick */
    CHECK(nrf51.wdt_fired);
}

/* ---- tick ---- */

static void tick_late_interrupt(void)
{
    boot();
    CHECK_EQ(PEEK(TIMER_CC(TIMER0_BASE, 0u)), 1000u);
    CHECK_EQ(PEEK(TIMER_PRESCALER(TIMER0_BASE)), TIMER_PRESCALER_1MHZ);
    CHECK_EQ(PEEK(TIMER_BITMODE(TIMER0_BASE)), TIMER_BITMODE_32BIT);
    nrf51_model_advance(3500000u); /* the interrupt 2.5 ms late */
    TIMER0_IRQHandler();
    nrf51_model_sync();
    CHECK_EQ(PEEK(TIMER_CC(TIMER0_BASE, 0u)), 4000u); /* the next boundary ahead, not one behind */
    CHECK(tick_now_us() >= 3500u);
    nrf51_model_advance(400000u);
    TIMER0_IRQHandler(); /* on time */
    nrf51_model_sync();
    CHECK_EQ(PEEK(TIMER_CC(TIMER0_BASE, 0u)), 5000u);
}

/* The CPU held 1.5 ms right after the interrupt's capture (under QEMU, the host descheduling its CPU):
 * the boundary it computed is behind the count by the time the compare is written. */
static void tick_held_before_the_compare_write(void)
{
    uint32_t compare, now;
    boot();
    nrf51_model_advance(1000000u); /* on time, at the first boundary */
    nrf51.stall_after_capture_ns = 1500000u;
    TIMER0_IRQHandler();
    nrf51_model_sync();
    compare = PEEK(TIMER_CC(TIMER0_BASE, 0u));
    now = (uint32_t)(nrf51.now_ns / 1000u);
    CHECK((int32_t)(compare - now) > 0); /* ahead of the count: the next interrupt comes */
    CHECK_EQ(compare, 3000u);            /* the boundary after the 2.5 ms the count had reached */
}

int main(void)
{
    run_test("twi_write", twi_write);
    run_test("twi_read_after_write", twi_read_after_write);
    run_test("twi_address_nack", twi_address_nack);
    run_test("twi_data_nack", twi_data_nack);
    run_test("twi_timeout", twi_timeout);
    run_test("twi_other_bus", twi_other_bus);
    run_test("watchdog_runs", watchdog_runs);
    run_test("tick_late_interrupt", tick_late_interrupt);
    run_test("tick_held_before_the_compare_write", tick_held_before_the_compare_write);
    printf("nrf51 port: %d tests, %d checks, %d failures\n", tests_run, test_checks, test_failures);
    return test_failures ? 1 : 0;
}
