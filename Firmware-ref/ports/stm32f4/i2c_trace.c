/* QEMU: the I2C bus as a trace. QEMU does not model I2C1, so every register write goes out on
 * USART1 as one line `i2c AA RR VV` (7-bit address, register, value; lowercase hex), one line per
 * byte of a multi-byte write (the register address increments, as the DRV2605L's does). Reads
 * answer like an idle, healthy DRV2605L: a register file that returns what was written, STATUS
 * with the DRV2605L's device ID and no fault, GO already cleared (calibration and diagnostics
 * finished at once and passed; DEV_RESET restores the reset values). */
#include "port.h"

#define DRV2605L_ADDRESS 0x5Au
#define REG_STATUS       0x00u
#define REG_MODE         0x01u
#define REG_GO           0x0Cu
#define REG_A_CAL_COMP   0x18u
#define REG_A_CAL_BEMF   0x19u
#define REG_LRA_PERIOD   0x22u
#define STATUS_IDLE      0xE0u /* DEVICE_ID 7 (DRV2605L), DIAG_RESULT 0, no over-temperature or current */
#define MODE_DEV_RESET   0x80u
#define MODE_STANDBY     0x40u

static uint8_t registers[256];

/* The chip after a reset, with what a calibration of a 170 Hz LRA leaves behind. */
static void reset_chip(void)
{
    unsigned i;
    for (i = 0; i < sizeof registers; i++) registers[i] = 0;
    registers[REG_STATUS] = STATUS_IDLE;
    registers[REG_MODE] = MODE_STANDBY;
    registers[REG_A_CAL_COMP] = 0x0Du;
    registers[REG_A_CAL_BEMF] = 0x6Du;
    registers[REG_LRA_PERIOD] = 60u; /* x 98.46 us: 169 Hz */
}

void i2c_init(void)
{
    reset_chip();
}

int i2c_transfer(uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    uint8_t reg;
    uint32_t i;
    if (bus != 0u || address != DRV2605L_ADDRESS) return THR_I2C_NACK; /* nothing else is on the bus */
    if (tx_length == 0u) return THR_I2C_OK;
    reg = tx[0];
    for (i = 1; i < tx_length; i++, reg++) {
        trace_text("i2c ");
        trace_hex2(address);
        trace_text(" ");
        trace_hex2(reg);
        trace_text(" ");
        trace_hex2(tx[i]);
        trace_end_line();
        registers[reg] = tx[i];
        if (reg == REG_MODE && (tx[i] & MODE_DEV_RESET)) reset_chip(); /* DEV_RESET clears itself */
    }
    registers[REG_GO] = 0; /* calibration and diagnostics finish at once */
    registers[REG_STATUS] = STATUS_IDLE;
    for (reg = tx[0], i = 0; i < rx_length; i++, reg++) rx[i] = registers[reg];
    return THR_I2C_OK;
}
