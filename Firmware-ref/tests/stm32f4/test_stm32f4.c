/* The STM32F4 port's code that no emulator runs, against the register model (model_stm32f4.h):
 * QEMU's netduinoplus2 models none of RCC, the flash interface, the IWDG, GPIO or I2C1. Built from
 * the port's own clock.c, tick.c, flash.c, iwdg.c and i2c1.c with STM32F4_REGISTER_MODEL (and
 * THRUM_DEBUG, for DBGMCU); part of `make test`.
 *   clock:  HSE bypass from the ST-LINK's MCO, or HSI after a bounded wait when it does not start;
 *           the PLL at 2 MHz VCO input, 84 MHz; FLASH_ACR read back before the switch (issue 26, item 1)
 *   tick:   board time from TIM5 at 1 MHz, which masked interrupts do not stop (item 1)
 *   flash:  erase and programming: keys, PSIZE, the watchdog kicked right before and outlasting a
 *           2 s erase at LSI's fastest, nothing touching the flash while it is busy (item 3)
 *   i2c:    a slave holding SDA: cleared at init and when BUSY persists, then transfers work (item 4)
 *   pins:   alternate function, type, speed and pull before the mode; no pull-ups on PB8/PB9 (item 6)
 * RM0368's register sequences for RCC, the IWDG, the flash controller and I2C1 (issue 23) are in
 * test_stm32f4_sequences.c. */
#include <stdio.h>
#include <string.h>

#include "model_stm32f4.h"
#include "port.h"
#include "test.h"
#include "test_stm32f4.h"

/* Here a register macro names its address (for stm32f4_model_peek), not an access. */
#undef STM32F4_REG
#define STM32F4_REG(address) (address)
#define PEEK(reg)            stm32f4_model_peek(reg)

void boot(int hse)
{
    stm32f4_model_reset();
    stm32f4.hse_present = hse;
    stm32f4.systick_handler = SysTick_Handler;
    clock_init();
    tick_init();
    stm32f4_model_sync();
}

/* ---- clocks ---- */

static void clock_from_hse(void)
{
    uint32_t pll;
    boot(1);
    CHECK_EQ(clock_source, CLOCK_HSE_BYPASS);
    CHECK(stm32f4.hsebyp_before_hseon); /* HSEBYP is set while HSEON is 0 (RM0368 §6.3.1) */
    CHECK(PEEK(RCC_CR) & RCC_CR_HSEON);
    pll = PEEK(RCC_PLLCFGR);
    CHECK_EQ(pll & 63u, 4u);           /* M: 8 MHz / 4 = 2 MHz VCO input */
    CHECK_EQ((pll >> 6) & 511u, 168u); /* N: VCO 336 MHz */
    CHECK_EQ((pll >> 16) & 3u, 1u);    /* P = 4: 84 MHz */
    CHECK_EQ((pll >> 24) & 15u, 7u);   /* Q = 7: 48 MHz */
    CHECK(pll & RCC_PLLCFGR_PLLSRC_HSE);
    CHECK_EQ(stm32f4_model_sysclk(), 84000000u);
    CHECK_EQ(stm32f4.latency_at_switch, 2); /* two wait states before the clock rose */
    CHECK(stm32f4.acr_read_at_switch);      /* and read back (RM0368 §3.4.1) */
    CHECK_EQ(PEEK(RCC_CFGR) & (7u << 10), RCC_CFGR_PPRE1_DIV2);
    CHECK(PEEK(RCC_APB1ENR) & RCC_APB1ENR_TIM5EN);
    CHECK(stm32f4.now_ns < 1000000u); /* no fallback wait */
}

/* SB16/SB50 not fitted (UM1724 §6.7.1): HSE never starts; HSI after HSE_WAIT_MS, said in clock_source. */
static void clock_hsi_fallback(void)
{
    uint32_t pll;
    boot(0);
    CHECK_EQ(clock_source, CLOCK_HSI_FALLBACK);
    CHECK_EQ(PEEK(RCC_CR) & (RCC_CR_HSEON | RCC_CR_HSEBYP), 0u);
    pll = PEEK(RCC_PLLCFGR);
    CHECK_EQ(pll & 63u, 8u); /* 16 MHz / 8 = 2 MHz */
    CHECK_EQ(pll & RCC_PLLCFGR_PLLSRC_HSE, 0u);
    CHECK_EQ(stm32f4_model_sysclk(), 84000000u);
    CHECK(stm32f4.now_ns >= 5000000u && stm32f4.now_ns < 6000000u); /* the bounded wait: 5 ms */
}

/* ---- board time ---- */

static void board_time_from_tim5(void)
{
    uint32_t us, ms;
    boot(1);
    CHECK_EQ(PEEK(TIM_PSC(TIM5_BASE)), 83u); /* 84 MHz / 84 = 1 MHz */
    CHECK_EQ(PEEK(TIM_ARR(TIM5_BASE)), 0xFFFFFFFFu);
    CHECK_EQ(PEEK(SYST_RVR), 83999u);
    CHECK(stm32f4.tim5_start_ns - stm32f4.systick_start_ns < 1000u); /* started together: aligned */
    us = tick_now_us();
    stm32f4_model_advance(1234567u);
    CHECK_NEAR(tick_now_us() - us, 1234, 1);
    /* interrupts masked for 50 ms (or an erase stalling the handlers): board time loses nothing; the
     * SysTick count, which only times timeouts, does */
    us = tick_now_us();
    ms = tick_ms();
    stm32f4_model_interrupts(0);
    stm32f4_model_advance(50000000u);
    stm32f4_model_interrupts(1);
    stm32f4_model_advance(1000u);
    CHECK_NEAR(tick_now_us() - us, 50001, 1);
    CHECK(tick_ms() - ms <= 2u);
}

/* ---- the flash: erase and programming ---- */

static void flash_erase_and_program(void)
{
    static const uint8_t data[11] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    uint8_t out[11];
    uint32_t kicks, i;
    boot(1);
    watchdog_start();
    stm32f4_model_sync();
    CHECK_EQ(PEEK(IWDG_PR), IWDG_PR_DIV128);
    CHECK_EQ(PEEK(IWDG_RLR), 1249u);
    CHECK_EQ(stm32f4.iwdg_locked_writes, 0u);
    CHECK(PEEK(DBGMCU_APB1_FZ) & DBGMCU_APB1_FZ_IWDG_STOP); /* a debug build */
    CHECK(PEEK(DBGMCU_CR) & DBGMCU_CR_DBG_SLEEP);
    /* LSI at its fastest, 47 kHz: the timeout, 1250 x 128 / 47 kHz = 3.40 s, outlasts the longest
     * 128 KB erase, 2 s (the F401 datasheet's t_ERASE128KB at x32); the old 1000 x 64 did not (1.36 s) */
    stm32f4.lsi_hz = 47000u;
    CHECK(stm32f4_model_iwdg_timeout_ns() > 3390000000u && stm32f4_model_iwdg_timeout_ns() < 3410000000u);
    stm32f4.erase_ns = 2000000000u;
    kicks = stm32f4.kicks;
    CHECK_EQ(slot_flash_erase(0x10000u), 0); /* the region's second sector: physical sector 5, 128 KB */
    stm32f4_model_sync();
    CHECK_EQ(stm32f4.erases[5], 1u);
    for (i = 0; i < 8u; i++)
        if (i != 5u) CHECK_EQ(stm32f4.erases[i], 0u);
    CHECK_EQ(stm32f4.image_touched, 0u);
    CHECK_EQ(stm32f4.erase_psize, FLASH_CR_PSIZE_32);
    CHECK(stm32f4.kick_to_start_ns < 1000u); /* kicked right before STRT */
    CHECK_EQ(stm32f4.kicks - kicks, 1u);     /* and not while it erased */
    CHECK_EQ(stm32f4.iwdg_fired, 0);
    /* The model delivers SysTick wherever its handler lives: that the handlers run from RAM, and so
     * go on during an erase on silicon, is ram_check.py's to show, not this test's. */
    CHECK_EQ(stm32f4.flash_access_while_busy, 0u);
    CHECK_EQ(stm32f4.cr_write_while_busy, 0u);
    CHECK_EQ(stm32f4.cr_write_while_locked, 0u);
    CHECK(PEEK(FLASH_CR) & FLASH_CR_LOCK); /* locked again */
    CHECK(stm32f4.dcache_resets >= 1u);    /* the data cache reset, with the cache off */
    CHECK_EQ(stm32f4.dcache_reset_while_on, 0u);
    /* bytes up to a word boundary, then words: 3 + 2 operations, each kicked, each waited for */
    stm32f4.erase_ns = 2000000u;
    kicks = stm32f4.kicks;
    CHECK_EQ(slot_flash_write(0x10001u, data, sizeof data), 0);
    CHECK_EQ(stm32f4.programs, 5u);
    CHECK_EQ(stm32f4.kicks - kicks, 5u);
    CHECK_EQ(stm32f4.psize_mismatch, 0u);
    CHECK_EQ(stm32f4.not_erased, 0u);
    CHECK_EQ(slot_flash_read(0x10001u, out, sizeof out), 0);
    CHECK(memcmp(out, data, sizeof data) == 0);
    CHECK_EQ(stm32f4.flash[0x20000u + 1u], 1u); /* at 0x08020001 */
    CHECK_EQ(stm32f4.flash_access_while_busy, 0u);
    /* an operation that fails (write protection) reports it; the next one clears the flag and works */
    stm32f4.fail_next = FLASH_SR_WRPERR;
    CHECK_EQ(slot_flash_erase(0x20000u), -1);
    CHECK_EQ(slot_flash_erase(0x30000u), 0);
    CHECK_EQ(stm32f4.erases[6], 1u);
    CHECK_EQ(stm32f4.erases[7], 1u);
    /* outside the region or off a sector start: refused, nothing touched */
    CHECK_EQ(slot_flash_erase(0x40000u), -1);
    CHECK_EQ(slot_flash_erase(0x10004u), -1);
    CHECK_EQ(slot_flash_write(0xFFFEu, data, 4u), -1);
    CHECK_EQ(stm32f4.image_touched, 0u);
    CHECK_EQ(stm32f4.cr_write_while_locked, 0u);
    CHECK_EQ(stm32f4.iwdg_fired, 0);
}

/* ---- I2C1: a stuck bus ---- */

static void i2c_boot(uint32_t held_clocks)
{
    boot(1);
    stm32f4_model_hold_sda(held_clocks);
    i2c_init();
    stm32f4_model_sync();
}

static void pins_configured(void)
{
    uint32_t moder = PEEK(GPIO_MODER(GPIOB_BASE));
    CHECK_EQ((moder >> 16) & 15u, GPIO_MODE_AF | GPIO_MODE_AF << 2);
    CHECK_EQ(PEEK(GPIO_OTYPER(GPIOB_BASE)) & (3u << 8), 3u << 8);      /* open drain */
    CHECK_EQ(PEEK(GPIO_PUPDR(GPIOB_BASE)) & (15u << 16), 0u);          /* no internal pull-ups */
    CHECK_EQ(PEEK(GPIO_AFRH(GPIOB_BASE)) & 0xFFu, 0x44u);              /* AF4: I2C1 */
    CHECK_EQ(PEEK(GPIO_OSPEEDR(GPIOB_BASE)) & (15u << 16), 10u << 16); /* high speed */
    CHECK_EQ(stm32f4.mode_switch_falls, 0u);                           /* no edge when a pin changed mode */
    CHECK(PEEK(I2C1_CR1) & I2C_CR1_PE);
}

/* The board reset in the middle of a read: the DRV2605L holds SDA for the five bits it has left.
 * Init clocks SCL until SDA is high (five clocks), sends a STOP, resets I2C1; then transfers work. */
static void i2c_cleared_at_init(void)
{
    uint8_t reg = 0x01, value = 0xEE;
    const uint8_t tx[2] = { 0x01, 0x00 };
    i2c_boot(5);
    CHECK_EQ(stm32f4.scl_rises, 6u); /* five clocks, then the STOP's */
    CHECK_EQ(stm32f4.bus_stops, 1u);
    CHECK_EQ(stm32f4.bus_starts, 0u);
    CHECK_EQ(stm32f4.slave_hold_clocks, 0u);
    CHECK(stm32f4.swrsts >= 1u);
    pins_configured();
    stm32f4.slave_reg[1] = 0x40;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_OK);
    CHECK_EQ(stm32f4.slave_reg[1], 0x00);
    stm32f4.slave_reg[1] = 0x07;
    CHECK_EQ(i2c_transfer(0, 0x5A, &reg, 1, &value, 1), THR_I2C_OK);
    CHECK_EQ(value, 0x07);
    CHECK_EQ(i2c_transfer(0, 0x5B, tx, 2, 0, 0), THR_I2C_NACK);
    /* a free bus at init: no clocks, only a STOP */
    i2c_boot(0);
    CHECK_EQ(stm32f4.scl_rises, 1u);
    CHECK_EQ(stm32f4.bus_stops, 1u);
    pins_configured();
}

/* Held again later (a reset of the MCU alone, st-flash): BUSY persists, the transfer clears the bus
 * and goes on, within its time; a slave that never lets go gets nine clocks and a timeout. */
static void i2c_cleared_when_busy(void)
{
    const uint8_t tx[2] = { 0x01, 0x00 };
    uint32_t rises;
    uint64_t start;
    i2c_boot(0);
    stm32f4_model_hold_sda(7);
    CHECK(PEEK(I2C1_CR1) & I2C_CR1_PE);
    rises = stm32f4.scl_rises;
    start = stm32f4.now_ns;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_OK);
    CHECK_EQ(stm32f4.scl_rises - rises, 8u); /* seven clocks and the STOP's */
    CHECK(stm32f4.now_ns - start < I2C_TIMEOUT_MS * 1000000u);
    CHECK_EQ(stm32f4.slave_writes > 0u, 1);
    stm32f4_model_hold_sda(1000);
    rises = stm32f4.scl_rises;
    start = stm32f4.now_ns;
    CHECK_EQ(i2c_transfer(0, 0x5A, tx, 2, 0, 0), THR_I2C_TIMEOUT);
    CHECK_EQ(stm32f4.scl_rises - rises, 10u); /* nine clocks and the STOP's */
    CHECK(stm32f4.now_ns - start < I2C_TIMEOUT_MS * 1000000u);
    stm32f4_model_sync();
    CHECK_EQ((PEEK(GPIO_MODER(GPIOB_BASE)) >> 16) & 15u, GPIO_MODE_AF | GPIO_MODE_AF << 2); /* I2C1 again */
}

int main(void)
{
    run_test("stm32f4 clock from the ST-LINK's MCO (HSE bypass)", clock_from_hse);
    run_test("stm32f4 clock: HSI fallback when HSE does not start", clock_hsi_fallback);
    run_test("stm32f4 board time from TIM5", board_time_from_tim5);
    run_test("stm32f4 flash erase and programming", flash_erase_and_program);
    run_test("stm32f4 I2C bus cleared at init", i2c_cleared_at_init);
    run_test("stm32f4 I2C bus cleared when BUSY persists", i2c_cleared_when_busy);
    stm32f4_sequence_tests();
    printf("stm32f4 port on the register model: %d tests, %d checks, %d failures\n", tests_run, test_checks,
           test_failures);
    return test_failures == 0 ? 0 : 1;
}
