/* TCA9548A I2C switch (tca9548a.h). */
#include "tca9548a.h"

#include <string.h>

static int upstream_transfer(tca9548a *mux, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    const thr_hal *hal = mux->upstream;
    return hal->i2c_transfer(hal->ctx, mux->bus, mux->address, tx, tx_length, rx, rx_length);
}

/* Writes the control register (one byte after the address, SCPS207H §7.5.3.1); the new selection
 * takes effect at the write's STOP, before the next transfer starts. */
static int select_ports(tca9548a *mux, uint8_t control)
{
    int r = upstream_transfer(mux, &control, 1, 0, 0);
    mux->selects++;
    mux->selected = r == THR_I2C_OK ? control : TCA9548A_SELECTED_UNKNOWN;
    return r;
}

int tca9548a_init(tca9548a *mux, const thr_hal *upstream, uint8_t bus, uint8_t address)
{
    uint8_t control = 0xFFu;
    int r;
    mux->upstream = upstream;
    mux->bus = bus;
    mux->address = address;
    mux->selected = TCA9548A_SELECTED_UNKNOWN;
    mux->selects = 0;
    if (address < TCA9548A_ADDRESS_MIN || address > TCA9548A_ADDRESS_MAX || !upstream->i2c_transfer)
        return THR_I2C_NACK;
    /* the mux keeps its selection through an MCU reset that did not power it down: none, known */
    if ((r = select_ports(mux, TCA9548A_CONTROL_NONE)) != THR_I2C_OK) return r;
    if ((r = upstream_transfer(mux, 0, 0, &control, 1)) != THR_I2C_OK) return r;
    if (control == TCA9548A_CONTROL_NONE) return THR_I2C_OK;
    mux->selected = TCA9548A_SELECTED_UNKNOWN;
    return THR_I2C_NACK; /* something else answers at this address */
}

int tca9548a_transfer(tca9548a *mux, uint8_t port, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                      uint32_t rx_length)
{
    const thr_hal *hal = mux->upstream;
    uint8_t control;
    int r;
    if (port >= TCA9548A_PORTS) return THR_I2C_NACK;
    control = (uint8_t)TCA9548A_CONTROL_PORT(port);
    if (mux->selected != control && (r = select_ports(mux, control)) != THR_I2C_OK) return r;
    r = hal->i2c_transfer(hal->ctx, mux->bus, address, tx, tx_length, rx, rx_length);
    if (r == THR_I2C_TIMEOUT) mux->selected = TCA9548A_SELECTED_UNKNOWN; /* a NACK is the chip's: the mux is fine */
    return r;
}

static int downstream_transfer(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length,
                               uint8_t *rx, uint32_t rx_length)
{
    return tca9548a_transfer(ctx, bus, address, tx, tx_length, rx, rx_length);
}

static uint32_t downstream_now_us(void *ctx)
{
    const thr_hal *hal = ((tca9548a *)ctx)->upstream;
    return hal->now_us(hal->ctx);
}

void tca9548a_downstream_hal(tca9548a *mux, thr_hal *hal)
{
    memset(hal, 0, sizeof *hal);
    hal->ctx = mux;
    hal->now_us = downstream_now_us;
    hal->i2c_transfer = downstream_transfer;
}
