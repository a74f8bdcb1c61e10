/* QEMU: the DRV2605L as a stand-in. QEMU's TWI0 is a stub that takes any write and answers reads with
 * fixed bytes of other chips, so the HAL's i2c_transfer goes here instead: every register write
 * becomes a trace line `i2c 5a RR VV` (7-bit address, register, value; lowercase hex) through
 * semihosting, one line per byte of a multi-byte write (the register address increments, as the
 * chip's does). Reads answer like an idle, healthy DRV2605L: what was written, STATUS with the
 * DRV2605L's device ID and no fault, GO cleared at once (calibration and diagnostics pass), DEV_RESET
 * bringing back the reset values. */
#include "port.h"

#define CHIP_ADDRESS   0x5Au
#define REG_STATUS     0x00u
#define REG_MODE       0x01u
#define REG_GO         0x0Cu
#define REG_COUNT      0x23u /* registers 0x00-0x22 */
#define STATUS_IDLE    0xE0u /* DEVICE_ID 7 (DRV2605L), DIAG_RESULT 0, no over-temperature or current */
#define MODE_DEV_RESET 0x80u
#define MODE_STANDBY   0x40u

static uint8_t chip[REG_COUNT];

static void chip_reset(void)
{
    uint8_t reg;
    for (reg = 0; reg < REG_COUNT; reg++) chip[reg] = 0;
    chip[REG_MODE] = MODE_STANDBY;
}

void twi_init(void)
{
    chip_reset();
}

static void trace_write(uint8_t reg, uint8_t value)
{
    trace_text("i2c ");
    trace_hex2(CHIP_ADDRESS);
    trace_text(" ");
    trace_hex2(reg);
    trace_text(" ");
    trace_hex2(value);
    trace_end_line();
}

int twi_transfer(void *ctx, uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx,
                 uint32_t rx_length)
{
    uint32_t i;
    uint8_t reg;
    (void)ctx;
    if (bus != 0u || address != CHIP_ADDRESS) return THR_I2C_NACK; /* nobody else answers */
    if (tx_length == 0u) return THR_I2C_OK;
    for (reg = tx[0], i = 1; i < tx_length; i++, reg++) {
        trace_write(reg, tx[i]);
        if (reg >= REG_COUNT) continue;
        chip[reg] = tx[i];
        if (reg == REG_MODE && (tx[i] & MODE_DEV_RESET)) chip_reset(); /* the bit clears itself */
    }
    chip[REG_GO] = 0;
    chip[REG_STATUS] = STATUS_IDLE;
    for (reg = tx[0], i = 0; i < rx_length; i++, reg++) rx[i] = reg < REG_COUNT ? chip[reg] : 0u;
    return THR_I2C_OK;
}
