/* TWI0, the I2C master to the DRV2605L on the edge connector (P19 = P0.00 SCL, P20 = P0.30 SDA; the
 * micro:bit's own accelerometer and magnetometer share the bus, with its 4.7 kΩ pull-ups), at
 * 400 kHz, polled (RM §28).
 *
 * A write: TXD holds the next byte; STARTTX sends START and the address, then each byte, TXDSENT
 * after each; the master holds SCL low until TXD is written again. A read after it: STARTRX sends a
 * repeated START; SHORTS BB_SUSPEND holds the bus after each byte until RESUME (so RXD is read
 * before the next byte can overrun it), BB_STOP ends the transfer after the last one (RM §28.5,
 * §28.6). A NACK raises ERROR with ERRORSRC saying which; the transfer is then stopped. Every wait is
 * bounded (TWI_TIMEOUT_US from its start, on board time): a bus that hangs (SCL held low by a slave,
 * or the peripheral stuck, PAN-036) gets the peripheral power-cycled and configured again, and the
 * transfer reports THR_I2C_TIMEOUT. */
#include "port.h"

#define PIN_SCL         0u
#define PIN_SDA         30u
#define STOP_TIMEOUT_US 200u /* a STOP after an error: a few bit times at 400 kHz */

void twi_init(void)
{
    /* input, standard 0 / disconnect 1 (open drain): the GPIO setting RM §28.2 (Table 258) gives the
     * TWI's pins, which holds them while the TWI is disabled; the pull-ups are the board's */
    GPIO_PIN_CNF(PIN_SCL) = GPIO_PIN_CNF_INPUT_CONNECT | GPIO_PIN_CNF_DRIVE_S0D1;
    GPIO_PIN_CNF(PIN_SDA) = GPIO_PIN_CNF_INPUT_CONNECT | GPIO_PIN_CNF_DRIVE_S0D1;
    TWI_PSELSCL = PIN_SCL;
    TWI_PSELSDA = PIN_SDA;
    TWI_FREQUENCY = TWI_FREQUENCY_K400;
    TWI_SHORTS = 0;
    TWI_ENABLE = TWI_ENABLE_ENABLED;
}

/* Power off and on (registers back to reset), then configured again. */
static void recover(void)
{
    TWI_POWER = 0;
    TWI_POWER = 1;
    twi_init();
}

/* Waits for the event at `event` (then clears it): THR_I2C_OK, THR_I2C_NACK on ERROR (a NACK; the
 * only other error source, an RXD overrun, cannot happen with BB_SUSPEND), THR_I2C_TIMEOUT after
 * `limit_us`. */
static int wait_for(uint32_t event, uint32_t limit_us)
{
    uint32_t start = tick_now_us();
    for (;;) {
        if (NRF51_REG(event)) {
            NRF51_REG(event) = 0;
            return THR_I2C_OK;
        }
        if (TWI_EVENTS_ERROR) return THR_I2C_NACK;
        if (tick_now_us() - start > limit_us) return THR_I2C_TIMEOUT;
    }
}

/* After a NACK: STOP, then the error cleared. A STOP that never comes is a hung bus. */
static int end_with_nack(void)
{
    TWI_SHORTS = 0;
    TWI_TASKS_STOP = TASK_TRIGGER;
    TWI_EVENTS_ERROR = 0;
    if (wait_for(TWI_EVENT_STOPPED, STOP_TIMEOUT_US) != THR_I2C_OK) {
        recover();
        return THR_I2C_TIMEOUT;
    }
    TWI_ERRORSRC = TWI_ERRORSRC_OVERRUN | TWI_ERRORSRC_ANACK | TWI_ERRORSRC_DNACK; /* write 1 to clear */
    return THR_I2C_NACK;
}

static int receive(uint8_t *rx, uint32_t rx_length)
{
    uint32_t i;
    int status;
    TWI_SHORTS = rx_length == 1u ? TWI_SHORTS_BB_STOP : TWI_SHORTS_BB_SUSPEND;
    TWI_TASKS_STARTRX = TASK_TRIGGER;
    for (i = 0; i < rx_length; i++) {
        status = wait_for(TWI_EVENT_RXDREADY, TWI_TIMEOUT_US);
        if (status != THR_I2C_OK) return status;
        if (i + 2u == rx_length) TWI_SHORTS = TWI_SHORTS_BB_STOP; /* the next byte is the last */
        rx[i] = (uint8_t)TWI_RXD;
        if (i + 1u < rx_length) TWI_TASKS_RESUME = TASK_TRIGGER;
    }
    return THR_I2C_OK;
}

static int transfer(const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    uint32_t i;
    int status;
    if (tx_length) {
        TWI_TXD = tx[0];
        TWI_TASKS_STARTTX = TASK_TRIGGER;
        for (i = 0; i < tx_length; i++) {
            if (i) TWI_TXD = tx[i];
            status = wait_for(TWI_EVENT_TXDSENT, TWI_TIMEOUT_US);
            if (status != THR_I2C_OK) return status;
        }
    }
    if (rx_length) return receive(rx, rx_length);
    TWI_TASKS_STOP = TASK_TRIGGER;
    return THR_I2C_OK;
}

int twi_transfer(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                 uint32_t rx_length)
{
    int status;
    (void)ctx;
    if (bus != 0u) return THR_I2C_NACK; /* TWI0 is the only bus */
    if (tx_length == 0u && rx_length == 0u) return THR_I2C_OK;
    TWI_EVENTS_STOPPED = 0;
    TWI_EVENTS_TXDSENT = 0;
    TWI_EVENTS_RXDREADY = 0;
    TWI_EVENTS_ERROR = 0;
    TWI_ADDRESS = address;
    status = transfer(tx, tx_length, rx, rx_length);
    if (status == THR_I2C_OK) status = wait_for(TWI_EVENT_STOPPED, STOP_TIMEOUT_US + TWI_TIMEOUT_US);
    if (status == THR_I2C_NACK) return end_with_nack(); /* also the last byte's NACK, seen while stopping */
    TWI_SHORTS = 0;
    if (status == THR_I2C_TIMEOUT) recover();
    return status;
}
