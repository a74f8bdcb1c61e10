/* The port's clock.c, iwdg.c, flash.c and i2c1.c against the rules of RM0368 the register model
 * enforces (model_stm32f4.h): each test runs the port's own code, checks that the model saw no
 * violation, and breaks the rule once by hand so that the check is known to bite.
 *   RCC (§6.3):   PLLCFGR written with the PLL off, the switch after PLLRDY, HSEBYP only with HSE off,
 *                 APB1 at most 42 MHz
 *   IWDG (§16):   0x5555 before PR and RLR, no write or reload while PVU/RVU, the timeout over LSI's range
 *   FLASH (§3.6): the keys (and a lock-out until reset), PG/SER/SNB, BSY, every error flag
 *   I2C1 (§18.3): START, SB, address, ADDR cleared by SR1 then SR2, a byte on each TXE, STOP after BTF;
 *                 NACK (AF) of the address and of a byte, a bus another master holds, arbitration lost */
#include <string.h>

#include "model_stm32f4.h"
#include "port.h"
#include "test.h"
#include "test_stm32f4.h"

#undef STM32F4_REG
#define PEEK(address) stm32f4_model_peek(address)
/* Here a register macro names its address; WRITE goes through the model as the port's code does. */
#define STM32F4_REG(address) (address)
#define WRITE(address, value)                       \
    do {                                            \
        *stm32f4_model_register(address) = (value); \
        stm32f4_model_sync();                       \
    } while (0)

/* ---- RCC ---- */

static void rcc_sequence(void)
{
    int hse;
    for (hse = 0; hse <= 1; hse++) {
        boot(hse);
        CHECK_EQ(stm32f4_model_violations(), 0u);
        CHECK_EQ(stm32f4.pllcfgr_while_on + stm32f4.switch_before_ready + stm32f4.hsebyp_while_on, 0u);
        CHECK_EQ(PEEK(RCC_CFGR) & RCC_CFGR_SWS_Msk, RCC_CFGR_SWS_PLL); /* the switch happened */
        CHECK(PEEK(RCC_CR) & RCC_CR_PLLRDY);
        CHECK_EQ(stm32f4.apb1_over_max, 0u); /* 84 MHz / 2 */
        CHECK_EQ(stm32f4_model_sysclk(), 84000000u);
    }
    CHECK_EQ(PEEK(RCC_CR) & RCC_CR_HSEBYP, RCC_CR_HSEBYP); /* with the ST-LINK's clock: bypass stays */
    /* the rules bite: a PLL reconfigured while it runs is ignored and counted */
    WRITE(RCC_PLLCFGR, 0u);
    CHECK_EQ(stm32f4.pllcfgr_while_on, 1u);
    CHECK_EQ(stm32f4_model_sysclk(), 84000000u);
    /* and switching to a PLL not yet locked does not happen */
    stm32f4_model_reset();
    WRITE(RCC_CR, RCC_CR_HSION | RCC_CR_PLLON);
    WRITE(RCC_CFGR, RCC_CFGR_PPRE1_DIV2 | RCC_CFGR_SW_PLL);
    CHECK_EQ(stm32f4.switch_before_ready, 1u);
    CHECK_EQ(PEEK(RCC_CFGR) & RCC_CFGR_SWS_Msk, 0u);
}

/* ---- IWDG ---- */

static void iwdg_keys_prescaler_reload(void)
{
    static const uint32_t lsi[3] = { 17000u, 32000u, 47000u };
    static const uint64_t timeout_ms[3] = { 9411u, 5000u, 3404u }; /* 4 x 2^5 x 1250 / LSI */
    unsigned i, s;
    for (i = 0; i < 3u; i++) {
        boot(1);
        stm32f4.lsi_hz = lsi[i];
        watchdog_start();
        stm32f4_model_sync();
        CHECK_EQ(PEEK(IWDG_PR), IWDG_PR_DIV128);
        CHECK_EQ(PEEK(IWDG_RLR), 1249u);
        CHECK_EQ(stm32f4.iwdg_locked_writes + stm32f4.iwdg_write_while_updating, 0u);
        CHECK_EQ(stm32f4.iwdg_reload_while_updating, 0u); /* the first reload waited for PVU and RVU */
        CHECK_NEAR(stm32f4_model_iwdg_timeout_ns() / 1000000u, timeout_ms[i], 1);
        /* kicked every second (the main loop): never fires */
        for (s = 0; s < 20u; s++) {
            stm32f4_model_advance(1000000000u);
            watchdog_kick();
            stm32f4_model_sync();
        }
        CHECK_EQ(stm32f4.iwdg_fired, 0);
        /* stalled: fires just after its timeout */
        stm32f4_model_advance(timeout_ms[i] * 1000000u - 20000000u);
        CHECK_EQ(stm32f4.iwdg_fired, 0);
        stm32f4_model_advance(40000000u);
        CHECK_EQ(stm32f4.iwdg_fired, 1);
    }
    /* the rules bite: after a reload PR is locked again; while RVU runs RLR is not taken */
    WRITE(IWDG_PR, 0u);
    CHECK_EQ(stm32f4.iwdg_locked_writes, 1u);
    CHECK_EQ(PEEK(IWDG_PR), IWDG_PR_DIV128);
    WRITE(IWDG_KR, IWDG_KEY_ENABLE);
    WRITE(IWDG_RLR, 100u);
    WRITE(IWDG_RLR, 200u);
    CHECK_EQ(stm32f4.iwdg_write_while_updating, 1u);
    CHECK_EQ(PEEK(IWDG_RLR), 100u);
}

/* ---- the flash controller ---- */

static void flash_keys_and_errors(void)
{
    static const uint32_t errors[5] = { FLASH_SR_WRPERR, FLASH_SR_PGAERR, FLASH_SR_PGPERR, FLASH_SR_PGSERR,
                                        FLASH_SR_OPERR };
    static const uint8_t data[8] = { 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0 };
    uint8_t out[8];
    unsigned i;
    boot(1);
    /* every error flag fails its operation, erase or programming, and is cleared before the next */
    for (i = 0; i < 5u; i++) {
        stm32f4.fail_next = errors[i];
        CHECK_EQ(slot_flash_erase(0x20000u), -1);
        CHECK_EQ(slot_flash_erase(0x20000u), 0);
        stm32f4.fail_next = errors[i];
        CHECK_EQ(slot_flash_write(0x20000u + 8u * i, data, 4u), -1);
        CHECK_EQ(slot_flash_write(0x20000u + 8u * i + 4u, data, 4u), 0);
    }
    CHECK_EQ(stm32f4.started_with_errors, 0u);
    CHECK_EQ(stm32f4.erases[6], 10u);
    /* PG/SER/SNB: programs are aligned to their size (PSIZE), erases name the sector, CR ends locked */
    CHECK_EQ(slot_flash_write(0x30003u, data, sizeof data), 0); /* one byte, a word, three bytes */
    CHECK_EQ(slot_flash_read(0x30003u, out, sizeof out), 0);
    CHECK(memcmp(out, data, sizeof data) == 0);
    CHECK_EQ(PEEK(FLASH_SR) & FLASH_SR_ERRORS, 0u);
    CHECK_EQ(PEEK(FLASH_CR), FLASH_CR_LOCK); /* PG, SER, SNB and PSIZE cleared with the lock */
    CHECK_EQ(stm32f4_model_violations(), 0u);
    /* the rules bite: a write to the flash without PG is a sequence error */
    STM32F4_MEM8(STM32F4_MODEL_FLASH + 0x60000u) = 0;
    stm32f4_model_sync();
    CHECK(PEEK(FLASH_SR) & FLASH_SR_PGSERR);
    /* a wrong key locks the controller until reset: erase and write say they failed, nothing changes */
    WRITE(FLASH_KEYR, 0x12345678u);
    CHECK_EQ(slot_flash_erase(0x30000u), -1);
    CHECK_EQ(slot_flash_write(0x30010u, data, 4u), -1);
    CHECK_EQ(stm32f4.erases[7], 0u);
    CHECK_EQ(stm32f4.flash[0x60010u], 0xFFu);
}

/* ---- I2C1 ---- */

static void i2c_ready(void)
{
    boot(1);
    i2c_init();
    stm32f4_model_sync();
}

static void i2c_write_sequence(void)
{
    static const uint8_t block[7] = { 0x16, 0x54, 0x89, 0x0D, 0x6D, 0xB6, 0x98 }; /* the DRV2605L's 0x16-0x1B */
    uint8_t reg = 0x16, in[6];
    uint64_t start;
    uint32_t n;
    i2c_ready();
    start = stm32f4.now_ns;
    CHECK_EQ(i2c_transfer(0, 0x5A, block, sizeof block, 0, 0), THR_I2C_OK);
    stm32f4_model_sync();
    CHECK(stm32f4.now_ns - start >= sizeof block * STM32F4_MODEL_BYTE_NS); /* waited for every byte */
    CHECK(memcmp(stm32f4.slave_reg + 0x16, block + 1, 6) == 0);
    CHECK_EQ(stm32f4.i2c_stops, 1u);
    CHECK_EQ(stm32f4.dr_overwrites + stm32f4.data_before_addr_cleared + stm32f4.address_without_sb_read, 0u);
    CHECK_EQ(stm32f4.stop_cut, 0u); /* STOP after BTF: nothing cut */
    /* reads of one, two and more bytes: their own sequences (§18.3.3), each value right */
    for (n = 1; n <= 6u; n++) {
        memset(in, 0, sizeof in);
        CHECK_EQ(i2c_transfer(0, 0x5A, &reg, 1, in, n), THR_I2C_OK);
        CHECK(memcmp(in, block + 1, n) == 0);
        stm32f4_model_sync();
        CHECK_EQ(stm32f4.rx_stop_after_ack, 0u); /* the last byte not acknowledged: the slave lets SDA go */
        CHECK_EQ(stm32f4.rx_count, n);           /* no byte clocked beyond those asked for */
    }
    CHECK_EQ(stm32f4_model_violations(), 0u);
    /* the rules bite: a byte written into a full DR is lost, a STOP before BTF cuts a byte */
    WRITE(I2C1_CR1, I2C_CR1_PE | I2C_CR1_START);
    (void)*stm32f4_model_register(I2C1_SR1);
    WRITE(I2C1_DR, 0x5Au << 1);
    (void)*stm32f4_model_register(I2C1_SR1);
    (void)*stm32f4_model_register(I2C1_SR2);
    WRITE(I2C1_DR, 0x01);
    WRITE(I2C1_DR, 0x02);
    WRITE(I2C1_DR, 0x03);
    CHECK_EQ(stm32f4.dr_overwrites, 1u);
    WRITE(I2C1_CR1, I2C_CR1_PE | I2C_CR1_STOP);
    CHECK_EQ(stm32f4.stop_cut, 1u);
}

static void i2c_nack(void)
{
    static const uint8_t tx[4] = { 0x16, 1, 2, 3 };
    uint32_t stops;
    i2c_ready();
    /* the address refused: AF, a STOP, AF cleared */
    stops = stm32f4.i2c_stops;
    CHECK_EQ(i2c_transfer(0, 0x5B, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    stm32f4_model_sync();
    CHECK_EQ(stm32f4.i2c_stops - stops, 1u);
    CHECK_EQ(PEEK(I2C1_SR1) & I2C_SR1_AF, 0u);
    /* the second data byte refused: the transfer ends there, with a STOP; the first byte arrived */
    stm32f4.slave_nack_at = 2;
    stops = stm32f4.i2c_stops;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, sizeof tx, 0, 0), THR_I2C_NACK);
    stm32f4_model_sync();
    CHECK_EQ(stm32f4.i2c_stops - stops, 1u);
    CHECK_EQ(stm32f4.slave_reg[0x16], 1u);
    CHECK_EQ(stm32f4.slave_reg[0x17], 0u);
    CHECK_EQ(PEEK(I2C1_SR1) & I2C_SR1_AF, 0u);
    stm32f4.slave_nack_at = STM32F4_MODEL_NO_NACK;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, sizeof tx, 0, 0), THR_I2C_OK);
    CHECK_EQ(stm32f4.slave_reg[0x18], 3u);
    CHECK_EQ(stm32f4_model_violations(), 0u);
}

/* Another master on the bus: its transfer is waited out (no bus clear); one that never ends gets
 * one bus clear and a timeout within the port's bound. */
static void i2c_bus_busy(void)
{
    static const uint8_t tx[2] = { 0x02, 0x40 };
    uint32_t rises;
    uint64_t start;
    i2c_ready();
    rises = stm32f4.scl_rises;
    start = stm32f4.now_ns;
    stm32f4.other_busy_until_ns = start + 1000000u;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_OK);
    CHECK(stm32f4.now_ns >= start + 1000000u);
    CHECK_EQ(stm32f4.scl_rises, rises); /* not cleared by hand */
    CHECK_EQ(stm32f4.slave_reg[0x02], 0x40u);
    start = stm32f4.now_ns;
    stm32f4.other_busy_until_ns = ~(uint64_t)0;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_TIMEOUT);
    CHECK(stm32f4.now_ns - start <= (I2C_TIMEOUT_MS + 1u) * 1000000u);
    CHECK(stm32f4.scl_rises > rises); /* the one bus clear */
    CHECK_EQ(stm32f4_model_violations(), 0u);
}

/* Arbitration lost at the address (ARLO): the interface is a slave again; the transfer ends as a
 * timeout, I2C1 is reset (ARLO cleared), and once the other master is done the next one works. */
static void i2c_arbitration_lost(void)
{
    static const uint8_t tx[2] = { 0x02, 0x33 };
    uint32_t resets;
    i2c_ready();
    resets = stm32f4.swrsts;
    stm32f4.arlo_at_address = 1;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_TIMEOUT);
    CHECK(stm32f4.swrsts > resets);
    CHECK_EQ(PEEK(I2C1_SR1) & I2C_SR1_ARLO, 0u);
    CHECK_EQ(stm32f4.slave_reg[0x02], 0u);
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_OK);
    CHECK_EQ(stm32f4.slave_reg[0x02], 0x33u);
    CHECK_EQ(stm32f4_model_violations(), 0u);
}

/* A spurious bus error during a write (ES0299 §2.8.1): BERR is cleared, the transfer completes as if
 * nothing happened, and I2C1 is not reset. */
static void i2c_spurious_bus_error(void)
{
    static const uint8_t tx[3] = { 0x03, 0x44, 0x55 };
    uint32_t resets;
    i2c_ready();
    resets = stm32f4.swrsts;
    stm32f4.spurious_berr = 1;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 3, 0, 0), THR_I2C_OK);
    CHECK_EQ(stm32f4.spurious_berr, 0); /* it was raised */
    CHECK_EQ(PEEK(I2C1_SR1) & I2C_SR1_BERR, 0u);
    CHECK_EQ(stm32f4.swrsts, resets);
    CHECK_EQ(stm32f4.slave_reg[0x03], 0x44u);
    CHECK_EQ(stm32f4.slave_reg[0x04], 0x55u);
    CHECK_EQ(stm32f4_model_violations(), 0u);
}

void stm32f4_sequence_tests(void)
{
    run_test("stm32f4 RCC: PLL set while off, switch after PLLRDY, HSEBYP with HSE off, APB1 <= 42 MHz", rcc_sequence);
    run_test("stm32f4 IWDG: keys, prescaler, reload and the timeout over LSI's range", iwdg_keys_prescaler_reload);
    run_test("stm32f4 flash: keys and lock-out, PG/SER/SNB, BSY, every error flag", flash_keys_and_errors);
    run_test("stm32f4 I2C write: START, SB, address, ADDR, TXE, BTF, STOP; reads of 1-6 bytes", i2c_write_sequence);
    run_test("stm32f4 I2C NACK (AF) of the address and of a data byte", i2c_nack);
    run_test("stm32f4 I2C bus busy: another master waited out, or a clear and a timeout", i2c_bus_busy);
    run_test("stm32f4 I2C arbitration lost (ARLO)", i2c_arbitration_lost);
    run_test("stm32f4 I2C spurious bus error (BERR) in master mode: cleared, the transfer goes on",
             i2c_spurious_bus_error);
}
