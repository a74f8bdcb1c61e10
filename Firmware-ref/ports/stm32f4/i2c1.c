/* I2C1 master on PB8 (SCL) / PB9 (SDA), alternate function 4, open drain, 400 kHz (the DRV2605L
 * takes fast mode). Polled, from the main loop only. Every wait is bounded (I2C_TIMEOUT_MS); a NACK of
 * the address or of a byte ends the transfer with a STOP. A timeout also resets the peripheral, so
 * a bus left half-way does not block the next transfer. Reads follow the sequences of RM0368
 * §18.3.3 for one, two and more bytes (ACK and STOP must be set before the last bytes arrive).
 *
 * A slave can hold SDA low for ever: the MCU reset in the middle of a read (watchdog, st-flash, the
 * reset button) while the DRV2605L was sending a 0 bit, and SWRST does not release it. So at init, and
 * whenever BUSY persists, the bus is cleared by hand (bus_clear, the I2C specification's "bus clear",
 * NXP UM10204 §3.1.16): the pins as open-drain outputs, SCL clocked up to nine times until the slave
 * lets SDA go, a STOP, then the pins back to I2C1 and SWRST.
 *
 * The internal pull-ups stay off unless I2C_INTERNAL_PULLUPS is 1: a breakout's own pull-ups (the
 * DRV2605L boards have 10 k) go to whatever powers it, and at 5 V they would fight the 3.3 V ones.
 * Power the breakout from 3V3 (README). */
#include "port.h"

#define SPEED_HZ  400000u
#define PIN_SCL   8u
#define PIN_SDA   9u
#define PINS_MASK ((3u << (2u * PIN_SCL)) | (3u << (2u * PIN_SDA))) /* two bits a pin */
#define HALF_US   5u                                                /* bus clear at 100 kHz */
#ifndef I2C_INTERNAL_PULLUPS
#define I2C_INTERNAL_PULLUPS 0
#endif

static void configure(void)
{
    I2C1_CR1 = I2C_CR1_SWRST;
    I2C1_CR1 = 0;
    I2C1_CR2 = (APB1_CLOCK_HZ / 1000000u) << I2C_CR2_FREQ_Pos;
    /* fast mode, duty 2:1: SCL period = 3 x CCR / APB1 clock */
    I2C1_CCR = I2C_CCR_FS | (APB1_CLOCK_HZ / (3u * SPEED_HZ));
    /* maximum rise time 300 ns in fast mode, in APB1 periods, plus one */
    I2C1_TRISE = (APB1_CLOCK_HZ / 1000000u) * 300u / 1000u + 1u;
    I2C1_CR1 = I2C_CR1_PE;
}

static void set_mode(uint32_t mode)
{
    GPIO_MODER(GPIOB_BASE) =
        (GPIO_MODER(GPIOB_BASE) & ~PINS_MASK) | (mode << (2u * PIN_SCL)) | (mode << (2u * PIN_SDA));
}

static void wait_half(void)
{
    uint32_t start = tick_now_us();
    while (tick_now_us() - start <= HALF_US) {}
}

/* SCL up, and a slave that stretches it given up to a millisecond. */
static void scl_high(void)
{
    uint32_t start = tick_now_us();
    GPIO_BSRR(GPIOB_BASE) = 1u << PIN_SCL;
    while (!(GPIO_IDR(GPIOB_BASE) & (1u << PIN_SCL)) && tick_now_us() - start < 1000u) {}
    wait_half();
}

static void drive_low(uint32_t pin)
{
    GPIO_BSRR(GPIOB_BASE) = 1u << (pin + 16u);
    wait_half();
}

/* Frees a bus a slave holds: up to nine clocks until SDA is high (a byte's eight bits and its
 * acknowledge), then a STOP (SDA rising while SCL is high), then I2C1 again, reset. The pins are
 * released (ODR 1) before they become outputs, so switching makes no edge. */
static void bus_clear(void)
{
    unsigned clocks;
    I2C1_CR1 = 0;
    GPIO_BSRR(GPIOB_BASE) = (1u << PIN_SCL) | (1u << PIN_SDA);
    set_mode(GPIO_MODE_OUTPUT); /* open drain (i2c_init) */
    wait_half();
    for (clocks = 0; clocks < 9u && !(GPIO_IDR(GPIOB_BASE) & (1u << PIN_SDA)); clocks++) {
        drive_low(PIN_SCL);
        scl_high();
    }
    drive_low(PIN_SCL);
    drive_low(PIN_SDA);
    scl_high();
    GPIO_BSRR(GPIOB_BASE) = 1u << PIN_SDA; /* STOP */
    wait_half();
    set_mode(GPIO_MODE_AF);
    configure();
}

/* Alternate function, output type, speed and pull first, the mode last: no glitch reaches the bus. */
void i2c_init(void)
{
    GPIO_AFRH(GPIOB_BASE) = (GPIO_AFRH(GPIOB_BASE) & ~0xFFu) | (GPIO_AF4_I2C1 << (4u * (PIN_SCL - 8u))) |
                            (GPIO_AF4_I2C1 << (4u * (PIN_SDA - 8u)));
    GPIO_OTYPER(GPIOB_BASE) |= (1u << PIN_SCL) | (1u << PIN_SDA);
    GPIO_OSPEEDR(GPIOB_BASE) = (GPIO_OSPEEDR(GPIOB_BASE) & ~PINS_MASK) | (GPIO_SPEED_HIGH << (2u * PIN_SCL)) |
                               (GPIO_SPEED_HIGH << (2u * PIN_SDA));
    GPIO_PUPDR(GPIOB_BASE) =
        (GPIO_PUPDR(GPIOB_BASE) & ~PINS_MASK) |
        (I2C_INTERNAL_PULLUPS ? (GPIO_PULL_UP << (2u * PIN_SCL)) | (GPIO_PULL_UP << (2u * PIN_SDA)) : 0u);
    bus_clear(); /* a slave left mid-byte by the reset; on a free bus only a STOP */
}

/* Waits for a status bit of SR1: THR_I2C_OK, THR_I2C_NACK (acknowledge failure) or THR_I2C_TIMEOUT.
 * A bus error in master mode can be flagged spuriously and does not affect the transfer (ES0299
 * §2.8.1): BERR is cleared (rc_w0: the 1s written leave the other flags) and the wait goes on. */
static int wait_sr1(uint32_t bit, uint32_t since)
{
    while (!(I2C1_SR1 & bit)) {
        if (I2C1_SR1 & I2C_SR1_AF) return THR_I2C_NACK;
        if (I2C1_SR1 & I2C_SR1_ARLO) return THR_I2C_TIMEOUT; /* the bus is not ours */
        if (I2C1_SR1 & I2C_SR1_BERR) I2C1_SR1 = 0xFFFFu & ~I2C_SR1_BERR;
        if (tick_ms() - since > I2C_TIMEOUT_MS) return THR_I2C_TIMEOUT;
    }
    return THR_I2C_OK;
}

/* START (or repeated START) and the address byte; ADDR is left set for the caller to clear. */
static int address_phase(uint8_t address, uint8_t read, uint32_t since)
{
    int status;
    I2C1_CR1 |= I2C_CR1_START;
    if ((status = wait_sr1(I2C_SR1_SB, since)) != THR_I2C_OK) return status;
    I2C1_DR = (uint32_t)(address << 1) | read;
    return wait_sr1(I2C_SR1_ADDR, since);
}

static void clear_addr(void)
{
    (void)I2C1_SR1;
    (void)I2C1_SR2;
}

static int write_bytes(const uint8_t *tx, uint32_t length, uint32_t since)
{
    int status = THR_I2C_OK;
    uint32_t i;
    clear_addr();
    for (i = 0; i < length && status == THR_I2C_OK; i++) {
        if ((status = wait_sr1(I2C_SR1_TXE, since)) == THR_I2C_OK) I2C1_DR = tx[i];
    }
    return status == THR_I2C_OK && length ? wait_sr1(I2C_SR1_BTF, since) : status;
}

static int read_bytes(uint8_t *rx, uint32_t length, uint32_t since)
{
    int status = THR_I2C_OK;
    if (length == 1u) {
        /* NACK and STOP must follow the ADDR clear before the byte ends: no interrupt in between */
        I2C1_CR1 &= ~I2C_CR1_ACK;
        CPU_INTERRUPTS_OFF();
        clear_addr();
        I2C1_CR1 |= I2C_CR1_STOP;
        CPU_INTERRUPTS_ON();
        if ((status = wait_sr1(I2C_SR1_RXNE, since)) == THR_I2C_OK) *rx = (uint8_t)I2C1_DR;
        return status;
    }
    if (length == 2u) {
        /* POS: the NACK applies to the second byte; set with ACK off before ADDR is cleared */
        I2C1_CR1 = (I2C1_CR1 & ~I2C_CR1_ACK) | I2C_CR1_POS;
        clear_addr();
        if ((status = wait_sr1(I2C_SR1_BTF, since)) != THR_I2C_OK) return status;
        I2C1_CR1 |= I2C_CR1_STOP;
        rx[0] = (uint8_t)I2C1_DR;
        rx[1] = (uint8_t)I2C1_DR;
        I2C1_CR1 &= ~I2C_CR1_POS;
        return THR_I2C_OK;
    }
    I2C1_CR1 |= I2C_CR1_ACK;
    clear_addr();
    while (length > 3u) {
        if ((status = wait_sr1(I2C_SR1_RXNE, since)) != THR_I2C_OK) return status;
        *rx++ = (uint8_t)I2C1_DR;
        length--;
    }
    /* three left: N-2 in DR and N-1 in the shift register before NACK and STOP */
    if ((status = wait_sr1(I2C_SR1_BTF, since)) != THR_I2C_OK) return status;
    I2C1_CR1 &= ~I2C_CR1_ACK;
    *rx++ = (uint8_t)I2C1_DR;
    if ((status = wait_sr1(I2C_SR1_BTF, since)) != THR_I2C_OK) return status;
    I2C1_CR1 |= I2C_CR1_STOP;
    *rx++ = (uint8_t)I2C1_DR;
    *rx = (uint8_t)I2C1_DR;
    return THR_I2C_OK;
}

int i2c_transfer(uint8_t bus, uint8_t address, const uint8_t *tx, uint32_t tx_length, uint8_t *rx, uint32_t rx_length)
{
    uint32_t since = tick_ms();
    int status = THR_I2C_OK;
    if (bus != 0u) return THR_I2C_NACK;
    while (I2C1_SR2 & I2C_SR2_BUSY) {
        if (tick_ms() - since > I2C_TIMEOUT_MS / 2u) { /* BUSY persists: the bus is cleared, once */
            bus_clear();
            if (I2C1_SR2 & I2C_SR2_BUSY) return THR_I2C_TIMEOUT;
        }
    }
    if (tx_length || !rx_length) { /* no bytes either way: an address probe */
        status = address_phase(address, 0u, since);
        if (status == THR_I2C_OK) status = write_bytes(tx, tx_length, since);
    }
    if (status == THR_I2C_OK && rx_length) {
        status = address_phase(address, 1u, since);
        if (status == THR_I2C_OK) status = read_bytes(rx, rx_length, since);
        if (status == THR_I2C_OK) return THR_I2C_OK; /* the read sequence set STOP itself */
    }
    I2C1_SR1 = ~I2C_SR1_AF & 0xFFFFu; /* AF clears by writing 0 */
    I2C1_CR1 |= I2C_CR1_STOP;
    if (status == THR_I2C_TIMEOUT) configure();
    return status;
}
