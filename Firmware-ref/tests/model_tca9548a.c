/* The TCA9548A model (model_tca9548a.h), after TI's SCPS207H §7.5. */
#include "model_tca9548a.h"

#include <string.h>

#include "thr_hal.h"

void model_tca9548a_reset(model_tca9548a *m, uint8_t address)
{
    memset(m, 0, sizeof *m);
    m->address = address;
    m->present = 1;
}

static uint32_t bus_bytes(uint32_t tx_length, uint32_t rx_length)
{
    return 1u + tx_length + (rx_length ? 1u + rx_length : 0u); /* address, data; a read's own address */
}

/* Forwarded to every chip on a connected port: acknowledged when one of them acknowledges, and
 * the first of them is what the master reads (chips at one address on two connected ports would
 * collide: the tests connect one). */
static int downstream(model_tca9548a *m, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                      uint32_t rx_length)
{
    int result = THR_I2C_NACK;
    unsigned port;
    for (port = 0; port < TCA9548A_PORTS; port++) {
        model_drv2605l *chip = m->chips[port];
        int read = result == THR_I2C_NACK, r;
        if (!(m->control & TCA9548A_CONTROL_PORT(port)) || !chip) continue;
        r = model_drv2605l_transfer(chip, address, tx, tx_length, read ? rx : 0, read ? rx_length : 0);
        if (r == THR_I2C_TIMEOUT || (r == THR_I2C_OK && result == THR_I2C_NACK)) result = r;
    }
    return result;
}

int model_tca9548a_transfer(model_tca9548a *m, uint32_t now_us, uint8_t address, const uint8_t *tx, uint32_t tx_length,
                            uint8_t *rx, uint32_t rx_length)
{
    unsigned port;
    m->transactions++;
    m->bytes += bus_bytes(tx_length, rx_length);
    for (port = 0; port < TCA9548A_PORTS; port++)
        if (m->chips[port]) m->chips[port]->now_us = now_us;
    if (address != m->address) return downstream(m, address, tx, tx_length, rx, rx_length);
    if (!m->present) return THR_I2C_NACK;
    if (tx_length) {
        m->control = tx[tx_length - 1u]; /* the last byte written is kept */
        m->control_writes++;
    }
    if (rx_length) memset(rx, m->control, rx_length);
    return THR_I2C_OK;
}
