/* QEMU: the I2C bus as a trace. QEMU does not model I2C1, so every register write goes out on
 * USART1 as one line `i2c AA RR VV` (7-bit address, register, value; lowercase hex), one line per
 * byte of a multi-byte write (the register address increments, as the DRV2605L's does). Reads
 * answer like an idle, healthy DRV2605L: a register file that returns what was written, STATUS
 * with the DRV2605L's device ID and no fault, GO already cleared (calibration and diagnostics
 * finished at once and passed; DEV_RESET restores the reset values).
 *
 * With THRUM_MUX a TCA9548A sits at THRUM_MUX_ADDRESS with one such chip on each of the first
 * THRUM_CHANNELS ports: a write of its control register is traced as `i2c 70 VV` (the mux has no
 * register address: the byte is the register, TI SCPS207H §7.5.4), and the `i2c 5a RR VV` lines
 * after it are the chips on the ports it connected. A read of the control register returns it. */
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

#if THRUM_MUX
#define CHIPS THRUM_CHANNELS
static uint8_t mux_control; /* 0 from power-on: no port connected */
#else
#define CHIPS 1u
#endif

static uint8_t registers[CHIPS][256];

/* The chip after a reset, with what a calibration of a 170 Hz LRA leaves behind. */
static void reset_chip(uint8_t *r)
{
    unsigned i;
    for (i = 0; i < 256u; i++) r[i] = 0;
    r[REG_STATUS] = STATUS_IDLE;
    r[REG_MODE] = MODE_STANDBY;
    r[REG_A_CAL_COMP] = 0x0Du;
    r[REG_A_CAL_BEMF] = 0x6Du;
    r[REG_LRA_PERIOD] = 60u; /* x 98.46 us: 169 Hz */
}

void i2c_init(void)
{
    unsigned chip;
    for (chip = 0; chip < CHIPS; chip++) reset_chip(registers[chip]);
}

static void trace_write(uint8_t address, const uint8_t *reg, uint8_t value)
{
    trace_text("i2c ");
    trace_hex2(address);
    trace_text(" ");
    if (reg) {
        trace_hex2(*reg);
        trace_text(" ");
    }
    trace_hex2(value);
    trace_end_line();
}

/* Whether `chip` hears the DRV2605L's address now: the one chip, or those on connected ports. */
static int connected(unsigned chip)
{
#if THRUM_MUX
    return (mux_control >> chip) & 1u;
#else
    (void)chip;
    return 1;
#endif
}

static int chip_transfer(const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    unsigned chip, first = CHIPS;
    uint8_t reg;
    uint32_t i;
    for (chip = 0; chip < CHIPS; chip++)
        if (connected(chip) && first == CHIPS) first = chip;
    if (first == CHIPS) return THR_I2C_NACK; /* no chip on the connected ports */
    if (tx_length == 0u) return THR_I2C_OK;
    for (reg = tx[0], i = 1; i < tx_length; i++, reg++) trace_write(DRV2605L_ADDRESS, &reg, tx[i]);
    for (chip = first; chip < CHIPS; chip++) {
        uint8_t *r = registers[chip];
        if (!connected(chip)) continue;
        for (reg = tx[0], i = 1; i < tx_length; i++, reg++) {
            r[reg] = tx[i];
            if (reg == REG_MODE && (tx[i] & MODE_DEV_RESET)) reset_chip(r); /* DEV_RESET clears itself */
        }
        r[REG_GO] = 0; /* calibration and diagnostics finish at once */
        r[REG_STATUS] = STATUS_IDLE;
    }
    for (reg = tx[0], i = 0; i < rx_length; i++, reg++) rx[i] = registers[first][reg];
    return THR_I2C_OK;
}

int i2c_transfer(uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    if (bus != 0u) return THR_I2C_NACK;
#if THRUM_MUX
    if (address == THRUM_MUX_ADDRESS) {
        uint32_t i;
        if (tx_length) { /* the last byte written is kept (SCPS207H §7.5.3.1) */
            mux_control = tx[tx_length - 1u];
            trace_write(address, 0, mux_control);
        }
        for (i = 0; i < rx_length; i++) rx[i] = mux_control;
        return THR_I2C_OK;
    }
#endif
    if (address != DRV2605L_ADDRESS) return THR_I2C_NACK; /* nothing else is on the bus */
    return chip_transfer(tx, tx_length, rx, rx_length);
}
