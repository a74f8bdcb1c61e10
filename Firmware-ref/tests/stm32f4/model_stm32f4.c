/* The STM32F401 register model (model_stm32f4.h). Register addresses and bits come from the port's
 * own header: here STM32F4_REG(address) is redefined to give the address itself. */
#include "model_stm32f4.h"

#include <string.h>

#ifndef STM32F4_REGISTER_MODEL
#define STM32F4_REGISTER_MODEL
#endif
#include "stm32f4_regs.h"
#undef STM32F4_REG
#define STM32F4_REG(address) (address)

#define HSE_READY_NS   1000u /* six cycles of 8 MHz, and some */
#define PLL_LOCK_NS    100000u
#define IWDG_UPDATE_NS 100000u              /* PVU/RVU: a few LSI cycles */
#define FLASH_POLL_NS  10000u               /* a FLASH_SR read while busy: the wait loop's time moves on faster */
#define GPIO_ODR_MODEL (GPIOB_BASE + 0x14u) /* the output data register; the port writes it through BSRR */

stm32f4_model stm32f4;

static volatile uint32_t *cell(uint32_t address)
{
    unsigned i;
    for (i = 0; i < stm32f4.cell_count; i++)
        if (stm32f4.cells[i].address == address) return &stm32f4.cells[i].value;
    if (stm32f4.cell_count == STM32F4_MODEL_CELLS) return &stm32f4.latch32; /* full: a sink */
    stm32f4.cells[stm32f4.cell_count].address = address;
    stm32f4.cells[stm32f4.cell_count].value = 0;
    return &stm32f4.cells[stm32f4.cell_count++].value;
}

#define REG(name) (*cell(name))

uint32_t stm32f4_model_peek(uint32_t address)
{
    return *cell(address);
}

void stm32f4_model_reset(void)
{
    memset(&stm32f4, 0, sizeof stm32f4);
    memset(stm32f4.flash, 0xFF, sizeof stm32f4.flash);
    memset(stm32f4.flash, 0xA5, 64u * 1024u); /* the image, sectors 0-3 */
    REG(RCC_CR) = RCC_CR_HSION | RCC_CR_HSIRDY;
    REG(FLASH_CR) = FLASH_CR_LOCK;
    REG(SYST_CVR) = 0;
    stm32f4.lsi_hz = 32000u;
    stm32f4.erase_ns = 2000000u;
    stm32f4.program_ns = 16000u;
    stm32f4.interrupts_enabled = 1;
    stm32f4.slave_address = 0x5Au;
    stm32f4.slave_nack_at = STM32F4_MODEL_NO_NACK;
    stm32f4.scl = stm32f4.sda = 1;
}

uint32_t stm32f4_model_violations(void)
{
    return stm32f4.hsebyp_while_on + stm32f4.pllcfgr_while_on + stm32f4.switch_before_ready + stm32f4.apb1_over_max +
           stm32f4.flash_access_while_busy + stm32f4.cr_write_while_busy + stm32f4.cr_write_while_locked +
           stm32f4.psize_mismatch + stm32f4.not_erased + stm32f4.image_touched + stm32f4.dcache_reset_while_on +
           stm32f4.started_with_errors + stm32f4.iwdg_locked_writes + stm32f4.iwdg_write_while_updating +
           stm32f4.iwdg_reload_while_updating + stm32f4.dr_overwrites + stm32f4.data_before_addr_cleared +
           stm32f4.address_without_sb_read + stm32f4.stop_cut + stm32f4.rx_stop_after_ack + stm32f4.mode_switch_falls;
}

void stm32f4_model_interrupts(int enabled)
{
    stm32f4.interrupts_enabled = enabled;
}

uint32_t stm32f4_model_sysclk(void)
{
    uint32_t pll = REG(RCC_PLLCFGR), m = pll & 63u, n = (pll >> RCC_PLLCFGR_PLLN_Pos) & 511u,
             p = 2u * (((pll >> RCC_PLLCFGR_PLLP_Pos) & 3u) + 1u);
    uint32_t source = (pll & RCC_PLLCFGR_PLLSRC_HSE) ? 8000000u : 16000000u;
    if ((REG(RCC_CFGR) & RCC_CFGR_SWS_Msk) != RCC_CFGR_SWS_PLL || m == 0u) return 16000000u;
    return (uint32_t)((uint64_t)source / m * n / p);
}

uint64_t stm32f4_model_iwdg_timeout_ns(void)
{
    uint64_t divider = 4u << (REG(IWDG_PR) & 7u), counts = (REG(IWDG_RLR) & 0xFFFu) + 1u;
    return counts * divider * 1000000000u / stm32f4.lsi_hz;
}

/* PVU and RVU while their update runs (RM0368 §16.4.4, IWDG_SR). */
static uint32_t iwdg_updating(void)
{
    return (stm32f4.now_ns < stm32f4.pr_update_ns ? IWDG_SR_PVU : 0u) |
           (stm32f4.now_ns < stm32f4.rlr_update_ns ? IWDG_SR_RVU : 0u);
}

static int pll_ready(void)
{
    return (REG(RCC_CR) & RCC_CR_PLLON) && stm32f4.now_ns - stm32f4.pll_on_ns >= PLL_LOCK_NS;
}

/* PPRE1 (RM0368 §6.3.3): 0xx divides by 1, 100 by 2, 101 by 4, 110 by 8, 111 by 16. */
static uint32_t apb1_divider(uint32_t cfgr)
{
    uint32_t ppre1 = (cfgr >> 10) & 7u;
    return ppre1 < 4u ? 1u : 2u << (ppre1 - 4u);
}

/* ---- the I2C bus ---- */

static int pin_drives_low(unsigned pin)
{
    uint32_t mode = (REG(GPIO_MODER(GPIOB_BASE)) >> (2u * pin)) & 3u;
    return mode == GPIO_MODE_OUTPUT && !(REG(GPIO_ODR_MODEL) >> pin & 1u);
}

/* The lines from what drives them; edges seen by the slave. `by_mode` is a MODER write. */
static void bus_update(int by_mode)
{
    int scl = !pin_drives_low(8u), sda;
    if (scl && !stm32f4.scl) stm32f4.scl_rises++;
    if (!scl && stm32f4.scl && stm32f4.slave_hold_clocks) stm32f4.slave_hold_clocks--; /* the slave's next bit */
    sda = !pin_drives_low(9u) && stm32f4.slave_hold_clocks == 0u;
    if (scl && stm32f4.scl && sda != stm32f4.sda) {
        if (sda)
            stm32f4.bus_stops++;
        else
            stm32f4.bus_starts++;
    }
    if (by_mode && ((!scl && stm32f4.scl) || (!sda && stm32f4.sda))) stm32f4.mode_switch_falls++;
    stm32f4.scl = scl;
    stm32f4.sda = sda;
    REG(GPIO_IDR(GPIOB_BASE)) = (uint32_t)scl << 8 | (uint32_t)sda << 9;
}

static void i2c_reset(void)
{
    REG(I2C1_SR1) = 0;
    REG(I2C1_SR2) = 0;
    REG(I2C1_DR) = 0;
    stm32f4.transfer_active = stm32f4.receiving = stm32f4.sr1_read_with_addr = stm32f4.sb_read = 0;
    stm32f4.shift_end_ns = 0;
    stm32f4.dr_full = stm32f4.start_pending = 0;
}

/* The next byte from the slave begins, if the last was acknowledged and no STOP waits. */
static void i2c_rx_next(uint64_t from)
{
    stm32f4.rx_end_ns =
        stm32f4.rx_last_ack && stm32f4.transfer_active && !stm32f4.rx_stop_pending ? from + STM32F4_MODEL_BYTE_NS : 0u;
}

static void i2c_stop_now(void)
{
    if (stm32f4.transfer_active && stm32f4.receiving && stm32f4.rx_last_ack) stm32f4.rx_stop_after_ack++;
    if (stm32f4.transfer_active) stm32f4.i2c_stops++;
    stm32f4.transfer_active = 0;
    stm32f4.shift_end_ns = stm32f4.rx_end_ns = 0;
    stm32f4.dr_full = stm32f4.rx_stop_pending = 0;
    /* bytes received stay to be read */
    REG(I2C1_SR1) &= stm32f4.receiving ? I2C_SR1_RXNE | I2C_SR1_BTF | I2C_SR1_AF : I2C_SR1_AF;
}

static void i2c_receive(void)
{
    while (stm32f4.receiving && stm32f4.rx_end_ns && stm32f4.now_ns >= stm32f4.rx_end_ns) {
        uint32_t cr1 = REG(I2C1_CR1);
        uint64_t ended = stm32f4.rx_end_ns;
        uint8_t byte = stm32f4.slave_reg[stm32f4.slave_pointer++];
        int ack = (cr1 & I2C_CR1_POS) ? (stm32f4.rx_count == 0u || stm32f4.rx_pos_ack) : (cr1 & I2C_CR1_ACK) != 0u;
        stm32f4.rx_count++;
        stm32f4.rx_pos_ack = (cr1 & I2C_CR1_ACK) != 0u;
        stm32f4.rx_end_ns = 0;
        if (!(REG(I2C1_SR1) & I2C_SR1_RXNE)) {
            REG(I2C1_DR) = byte;
            REG(I2C1_SR1) |= I2C_SR1_RXNE;
            stm32f4.rx_last_ack = ack;
            i2c_rx_next(ended);
        } else { /* DR still full: the byte waits in the shift register, SCL stretched */
            stm32f4.rx_shift_byte = byte;
            stm32f4.rx_shift_full = 1;
            stm32f4.rx_shift_ack = ack;
            stm32f4.rx_last_ack = ack;
            REG(I2C1_SR1) |= I2C_SR1_BTF;
        }
        if (stm32f4.rx_stop_pending && !stm32f4.rx_end_ns) i2c_stop_now();
    }
}

/* DR read by the receiver: the waiting byte moves in, and the one after it begins. */
static void i2c_dr_read(void)
{
    REG(I2C1_SR1) &= ~(I2C_SR1_RXNE | I2C_SR1_BTF);
    if (!stm32f4.rx_shift_full) return;
    stm32f4.rx_shift_full = 0;
    REG(I2C1_DR) = stm32f4.rx_shift_byte;
    REG(I2C1_SR1) |= I2C_SR1_RXNE;
    stm32f4.rx_last_ack = stm32f4.rx_shift_ack;
    i2c_rx_next(stm32f4.now_ns);
}

static int bus_free(void)
{
    return stm32f4.scl && stm32f4.sda && stm32f4.slave_hold_clocks == 0u &&
           stm32f4.now_ns >= stm32f4.other_busy_until_ns;
}

/* The START condition once the bus is free (RM0368 §18.3.3: the interface waits for a STOP on a
 * busy bus); SB then, master mode. */
static void i2c_start_when_free(void)
{
    if (!stm32f4.start_pending || !bus_free()) return;
    stm32f4.start_pending = 0;
    REG(I2C1_SR1) = (REG(I2C1_SR1) & I2C_SR1_AF) | I2C_SR1_SB;
    stm32f4.transfer_active = 1;
    stm32f4.transfers_started++;
}

/* The byte in the shift register reaches the slave; the next one follows from DR, else BTF. A byte
 * the slave refuses sets AF and ends the sending (RM0368 §18.3.3, "Acknowledge failure"). */
static void i2c_shift(void)
{
    while (stm32f4.shift_end_ns && stm32f4.now_ns >= stm32f4.shift_end_ns) {
        uint64_t ended = stm32f4.shift_end_ns;
        stm32f4.shift_end_ns = 0;
        if (stm32f4.data_bytes++ == stm32f4.slave_nack_at) {
            REG(I2C1_SR1) |= I2C_SR1_AF;
            stm32f4.dr_full = 0;
            return;
        }
        if (stm32f4.slave_first_byte) {
            stm32f4.slave_pointer = stm32f4.shift_byte;
            stm32f4.slave_first_byte = 0;
        } else {
            stm32f4.slave_reg[stm32f4.slave_pointer++] = stm32f4.shift_byte;
            stm32f4.slave_writes++;
        }
        if (stm32f4.dr_full) {
            stm32f4.dr_full = 0;
            stm32f4.shift_byte = stm32f4.dr_byte;
            stm32f4.shift_end_ns = ended + STM32F4_MODEL_BYTE_NS;
            REG(I2C1_SR1) |= I2C_SR1_TXE;
        } else {
            REG(I2C1_SR1) |= I2C_SR1_BTF;
        }
    }
}

static void i2c_cr1_written(uint32_t value)
{
    if (value & I2C_CR1_SWRST) {
        stm32f4.swrsts++;
        i2c_reset();
        return;
    }
    if (!(value & I2C_CR1_PE)) return;
    if (value & I2C_CR1_START) {
        REG(I2C1_CR1) &= ~I2C_CR1_START;
        stm32f4.start_pending = 1;
        i2c_start_when_free(); /* a bus held low by a slave: no START until it is let go */
    }
    if (value & I2C_CR1_STOP) {
        i2c_shift();
        i2c_receive();
        REG(I2C1_CR1) &= ~I2C_CR1_STOP;
        if (stm32f4.transfer_active && !stm32f4.receiving && !(REG(I2C1_SR1) & I2C_SR1_AF) &&
            (stm32f4.shift_end_ns || stm32f4.dr_full))
            stm32f4.stop_cut++; /* STOP before BTF: the bytes still to send are lost */
        if (stm32f4.receiving && stm32f4.rx_end_ns)
            stm32f4.rx_stop_pending = 1; /* after the byte arriving */
        else
            i2c_stop_now();
    }
}

static void i2c_address_written(uint32_t value, uint32_t sr1)
{
    if (!stm32f4.sb_read) stm32f4.address_without_sb_read++; /* SB clears by reading SR1, then DR */
    REG(I2C1_SR1) = sr1 & ~I2C_SR1_SB;
    stm32f4.sb_read = 0;
    if (stm32f4.arlo_at_address) { /* another master sent a lower address: back to slave mode, ARLO */
        stm32f4.arlo_at_address = 0;
        REG(I2C1_SR1) |= I2C_SR1_ARLO;
        stm32f4.transfer_active = 0;
        stm32f4.other_busy_until_ns = stm32f4.now_ns + 10u * STM32F4_MODEL_BYTE_NS; /* its transfer goes on */
        return;
    }
    if ((value >> 1) == stm32f4.slave_address) {
        REG(I2C1_SR1) |= I2C_SR1_ADDR;
        stm32f4.receiving = (int)(value & 1u);
        stm32f4.slave_first_byte = !stm32f4.receiving;
        stm32f4.data_bytes = stm32f4.rx_count = 0;
        stm32f4.rx_shift_full = stm32f4.rx_stop_pending = 0;
    } else {
        REG(I2C1_SR1) |= I2C_SR1_AF;
    }
}

static void i2c_dr_written(uint32_t value)
{
    uint32_t sr1 = REG(I2C1_SR1);
    if (sr1 & I2C_SR1_SB) {
        i2c_address_written(value, sr1);
        return;
    }
    if (!stm32f4.transfer_active || stm32f4.receiving) return;
    if (sr1 & I2C_SR1_ADDR) stm32f4.data_before_addr_cleared++;
    if (stm32f4.spurious_berr) {
        stm32f4.spurious_berr = 0;
        REG(I2C1_SR1) |= I2C_SR1_BERR;
    }
    i2c_shift();
    if (!(REG(I2C1_SR1) & I2C_SR1_TXE)) {
        stm32f4.dr_overwrites++; /* DR still held the byte before */
        return;
    }
    REG(I2C1_SR1) &= ~I2C_SR1_BTF;
    if (!stm32f4.shift_end_ns) { /* straight into the shift register: DR stays empty */
        stm32f4.shift_byte = (uint8_t)value;
        stm32f4.shift_end_ns = stm32f4.now_ns + STM32F4_MODEL_BYTE_NS;
    } else {
        stm32f4.dr_byte = (uint8_t)value;
        stm32f4.dr_full = 1;
        REG(I2C1_SR1) &= ~I2C_SR1_TXE;
    }
}

void stm32f4_model_hold_sda(uint32_t clocks)
{
    uint32_t starts = stm32f4.bus_starts, stops = stm32f4.bus_stops;
    stm32f4.slave_hold_clocks = clocks;
    bus_update(0);
    stm32f4.bus_starts = starts; /* the slave's own doing: not a condition the master made */
    stm32f4.bus_stops = stops;
}

/* ---- settling the last access ---- */

static void flash_operation_ends(void)
{
    if (stm32f4.busy_until_ns && stm32f4.now_ns >= stm32f4.busy_until_ns) {
        REG(FLASH_SR) = (REG(FLASH_SR) & ~FLASH_SR_BSY) | FLASH_SR_EOP | stm32f4.fail_next;
        stm32f4.fail_next = 0;
        stm32f4.busy_until_ns = 0;
    }
}

static int flash_busy(void)
{
    flash_operation_ends();
    return (REG(FLASH_SR) & FLASH_SR_BSY) != 0u;
}

static void flash_erase(uint32_t control)
{
    static const uint32_t kb[8] = { 16, 16, 16, 16, 64, 128, 128, 128 };
    uint32_t sector = (control & FLASH_CR_SNB_Msk) >> FLASH_CR_SNB_Pos, start = 0, i;
    if (sector >= 8u) return;
    for (i = 0; i < sector; i++) start += kb[i] * 1024u;
    if (sector < 4u) stm32f4.image_touched++;
    memset(stm32f4.flash + start, 0xFF, kb[sector] * 1024u);
    stm32f4.erases[sector]++;
    stm32f4.erase_psize = control & FLASH_CR_PSIZE_Msk;
    stm32f4.kick_to_start_ns = stm32f4.now_ns - stm32f4.last_kick_ns;
    REG(FLASH_SR) |= FLASH_SR_BSY;
    stm32f4.busy_until_ns = stm32f4.now_ns + stm32f4.erase_ns;
}

static void register_written(uint32_t address, uint32_t value, uint32_t old)
{
    volatile uint32_t *c = cell(address);
    switch (address) {
    case RCC_CR:
        if (((value ^ old) & RCC_CR_HSEBYP) && (old & RCC_CR_HSEON)) { /* written only with HSE off */
            stm32f4.hsebyp_while_on++;
            *c = (*c & ~RCC_CR_HSEBYP) | (old & RCC_CR_HSEBYP);
        }
        if ((value & RCC_CR_HSEON) && !(old & RCC_CR_HSEON)) {
            stm32f4.hse_on_ns = stm32f4.now_ns;
            stm32f4.hsebyp_before_hseon = (old & RCC_CR_HSEBYP) != 0u;
        }
        if (!(value & RCC_CR_HSEON)) *c &= ~RCC_CR_HSERDY;
        if ((value & RCC_CR_PLLON) && !(old & RCC_CR_PLLON)) stm32f4.pll_on_ns = stm32f4.now_ns;
        break;
    case RCC_PLLCFGR:
        if (REG(RCC_CR) & RCC_CR_PLLON) { /* ignored while the PLL runs */
            stm32f4.pllcfgr_while_on++;
            *c = old;
        }
        break;
    case RCC_CFGR:
        if ((value & RCC_CFGR_SW_Msk) == RCC_CFGR_SW_PLL && !pll_ready()) {
            stm32f4.switch_before_ready++; /* SWS keeps the old source */
            *c = (value & ~RCC_CFGR_SWS_Msk) | (old & RCC_CFGR_SWS_Msk);
            break;
        }
        *c = (value & ~RCC_CFGR_SWS_Msk) | (value & RCC_CFGR_SW_Msk) << 2; /* the switch is immediate here */
        if ((value & RCC_CFGR_SW_Msk) == RCC_CFGR_SW_PLL) {
            stm32f4.latency_at_switch = (int)(REG(FLASH_ACR) & 15u);
            stm32f4.acr_read_at_switch = stm32f4.acr_read_back;
        }
        if (stm32f4_model_sysclk() / apb1_divider(*c) > 42000000u) stm32f4.apb1_over_max++;
        break;
    case FLASH_ACR:
        if ((value & FLASH_ACR_LATENCY_Msk) != (old & FLASH_ACR_LATENCY_Msk)) stm32f4.acr_read_back = 0;
        if ((value & FLASH_ACR_DCRST) && !(old & FLASH_ACR_DCRST)) {
            if (value & FLASH_ACR_DCEN) stm32f4.dcache_reset_while_on++;
            stm32f4.dcache_resets++;
        }
        break;
    case FLASH_KEYR:
        if (stm32f4.locked_out) break;
        if (stm32f4.key_step == 0 && value == FLASH_KEY1) {
            stm32f4.key_step = 1;
        } else if (stm32f4.key_step == 1 && value == FLASH_KEY2) {
            REG(FLASH_CR) &= ~FLASH_CR_LOCK;
            stm32f4.key_step = 0;
        } else {
            stm32f4.locked_out = 1; /* a bus error and locked until reset (RM0368 §3.6.1) */
        }
        *c = 0;
        break;
    case FLASH_SR:
        *c = old & ~(value & (FLASH_SR_ERRORS | FLASH_SR_EOP)); /* write 1 to clear; BSY is read-only */
        break;
    case FLASH_CR:
        if (flash_busy()) {
            stm32f4.cr_write_while_busy++;
            *c = old;
            break;
        }
        if ((old & FLASH_CR_LOCK) && !stm32f4.locked_out) {
            stm32f4.cr_write_while_locked++;
            *c = old;
            break;
        }
        if ((value & FLASH_CR_STRT) && (value & FLASH_CR_SER)) {
            if (REG(FLASH_SR) & FLASH_SR_ERRORS) stm32f4.started_with_errors++;
            flash_erase(value);
        }
        *c = value & ~FLASH_CR_STRT;
        break;
    case IWDG_KR:
        if (value == IWDG_KEY_START && !stm32f4.iwdg_started) {
            stm32f4.iwdg_started = 1;
            stm32f4.last_kick_ns = stm32f4.now_ns; /* the counter starts from the reload value */
        }
        if (value == IWDG_KEY_ENABLE) stm32f4.iwdg_unlocked = 1;
        if (value == IWDG_KEY_RELOAD) {
            if (iwdg_updating()) stm32f4.iwdg_reload_while_updating++;
            stm32f4.kicks++;
            stm32f4.last_kick_ns = stm32f4.now_ns;
            stm32f4.iwdg_unlocked = 0;
        }
        *c = 0;
        break;
    case IWDG_PR:
    case IWDG_RLR:
        if (!stm32f4.iwdg_unlocked) {
            stm32f4.iwdg_locked_writes++;
            *c = old;
        } else if (iwdg_updating() & (address == IWDG_PR ? IWDG_SR_PVU : IWDG_SR_RVU)) {
            stm32f4.iwdg_write_while_updating++; /* the update in progress wins */
            *c = old;
        } else {
            *(address == IWDG_PR ? &stm32f4.pr_update_ns : &stm32f4.rlr_update_ns) = stm32f4.now_ns + IWDG_UPDATE_NS;
        }
        break;
    case SYST_CVR:
        *c = 0;
        stm32f4.systick_start_ns = stm32f4.now_ns;
        stm32f4.systick_delivered = 0;
        break;
    case TIM_CR1(TIM5_BASE):
        if ((value & TIM_CR1_CEN) && !(old & TIM_CR1_CEN)) stm32f4.tim5_start_ns = stm32f4.now_ns;
        break;
    case TIM_EGR(TIM5_BASE):
        stm32f4.tim5_start_ns = stm32f4.now_ns; /* UG: the count restarts at 0 */
        *c = 0;
        break;
    case GPIO_BSRR(GPIOB_BASE):
        REG(GPIO_ODR_MODEL) = (REG(GPIO_ODR_MODEL) | (value & 0xFFFFu)) & ~(value >> 16);
        *c = 0;
        bus_update(0);
        break;
    case GPIO_MODER(GPIOB_BASE): bus_update(1); break;
    case I2C1_CR1: i2c_cr1_written(value); break;
    case I2C1_DR: i2c_dr_written(value); break;
    case I2C1_SR1:
        *c = old & (value | ~(I2C_SR1_AF | I2C_SR1_BERR | I2C_SR1_ARLO)); /* rc_w0 */
        break;
    default: break;
    }
}

static void register_read(uint32_t address)
{
    switch (address) {
    case I2C1_SR1:
        if (REG(I2C1_SR1) & I2C_SR1_ADDR) stm32f4.sr1_read_with_addr = 1;
        if (REG(I2C1_SR1) & I2C_SR1_SB) stm32f4.sb_read = 1;
        break;
    case I2C1_SR2:
        if (stm32f4.sr1_read_with_addr && (REG(I2C1_SR1) & I2C_SR1_ADDR)) {
            REG(I2C1_SR1) &= ~I2C_SR1_ADDR;
            stm32f4.sr1_read_with_addr = 0;
            if (stm32f4.receiving) {
                stm32f4.rx_last_ack = 1;
                i2c_rx_next(stm32f4.now_ns);
            } else {
                REG(I2C1_SR1) |= I2C_SR1_TXE;
            }
        }
        break;
    case I2C1_DR:
        if (stm32f4.receiving) i2c_dr_read();
        break;
    case FLASH_ACR: stm32f4.acr_read_back = 1; break;
    default: break;
    }
}

static void settle(void)
{
    switch (stm32f4.pending_kind) {
    case 1:
        if (*stm32f4.pending_cell != stm32f4.pending_value) {
            uint32_t value = *stm32f4.pending_cell;
            register_written(stm32f4.pending_address, value, stm32f4.pending_value);
        } else {
            register_read(stm32f4.pending_address);
        }
        break;
    case 2:
    case 3: {
        uint32_t offset = stm32f4.pending_address - STM32F4_MODEL_FLASH, width = stm32f4.pending_kind == 2 ? 4u : 1u, i,
                 written = stm32f4.pending_kind == 2 ? stm32f4.latch32 : stm32f4.latch8;
        uint32_t psize = REG(FLASH_CR) & FLASH_CR_PSIZE_Msk;
        if (written == stm32f4.pending_value) break; /* a read */
        if (flash_busy()) break;
        if (!(REG(FLASH_CR) & FLASH_CR_PG) || (REG(FLASH_CR) & FLASH_CR_LOCK)) {
            REG(FLASH_SR) |= FLASH_SR_PGSERR; /* a write to the flash not set up for programming (§3.8.4) */
            break;
        }
        if (REG(FLASH_SR) & FLASH_SR_ERRORS) stm32f4.started_with_errors++;
        if (offset % width != 0u) {
            REG(FLASH_SR) |= FLASH_SR_PGAERR; /* not aligned to its size */
            break;
        }
        if (psize != (width == 4u ? FLASH_CR_PSIZE_32 : FLASH_CR_PSIZE_8)) {
            stm32f4.psize_mismatch++;
            REG(FLASH_SR) |= FLASH_SR_PGPERR;
            break;
        }
        if (offset < 64u * 1024u) stm32f4.image_touched++;
        for (i = 0; i < width; i++) {
            uint8_t byte = (uint8_t)(written >> (8u * i));
            if ((stm32f4.flash[offset + i] & byte) != byte) stm32f4.not_erased++;
            stm32f4.flash[offset + i] &= byte;
        }
        stm32f4.programs++;
        REG(FLASH_SR) |= FLASH_SR_BSY;
        stm32f4.busy_until_ns = stm32f4.now_ns + stm32f4.program_ns;
        break;
    }
    default: break;
    }
    stm32f4.pending_kind = 0;
}

void stm32f4_model_sync(void)
{
    settle();
}

static void systick_interrupts(void)
{
    uint32_t csr = REG(SYST_CSR);
    uint64_t periods;
    if (!stm32f4.systick_handler ||
        (csr & (SYST_CSR_ENABLE | SYST_CSR_TICKINT)) != (SYST_CSR_ENABLE | SYST_CSR_TICKINT))
        return;
    periods = (stm32f4.now_ns - stm32f4.systick_start_ns) * stm32f4_model_sysclk() / 1000000000u /
              ((uint64_t)(REG(SYST_RVR) & 0xFFFFFFu) + 1u);
    if (periods <= stm32f4.systick_delivered || !stm32f4.interrupts_enabled) return;
    stm32f4.systick_delivered = periods; /* several wraps pending: one interrupt */
    stm32f4.systick_handler();
}

void stm32f4_model_advance(uint64_t ns)
{
    stm32f4.now_ns += ns;
    systick_interrupts();
    if (stm32f4.iwdg_started && stm32f4.now_ns - stm32f4.last_kick_ns > stm32f4_model_iwdg_timeout_ns())
        stm32f4.iwdg_fired = 1;
}

/* The value a register reads now (counters, ready flags, status). */
static void refresh(uint32_t address)
{
    volatile uint32_t *c = cell(address);
    uint64_t since;
    switch (address) {
    case RCC_CR:
        if ((*c & RCC_CR_HSEON) && stm32f4.hse_present && stm32f4.now_ns - stm32f4.hse_on_ns >= HSE_READY_NS)
            *c |= RCC_CR_HSERDY;
        if (pll_ready()) *c |= RCC_CR_PLLRDY;
        break;
    case SYST_CVR:
        if (!(REG(SYST_CSR) & SYST_CSR_ENABLE) && stm32f4.systick_start_ns == 0u)
            *c = 0x5A5A5Au; /* UNKNOWN from reset (ARMv7-M): a write of 0 is seen */
        if (REG(SYST_CSR) & SYST_CSR_ENABLE) {
            uint64_t cycles = (stm32f4.now_ns - stm32f4.systick_start_ns) * stm32f4_model_sysclk() / 1000000000u,
                     period = (uint64_t)(REG(SYST_RVR) & 0xFFFFFFu) + 1u;
            *c = (uint32_t)((period - cycles % period) % period);
        }
        break;
    case TIM_CNT(TIM5_BASE):
        since = stm32f4.now_ns - stm32f4.tim5_start_ns;
        if (REG(TIM_CR1(TIM5_BASE)) & TIM_CR1_CEN)
            *c = (uint32_t)(since * (stm32f4_model_sysclk() / 1000000u) / 1000u / (REG(TIM_PSC(TIM5_BASE)) + 1u));
        break;
    case FLASH_SR:
        if (flash_busy()) stm32f4.now_ns += FLASH_POLL_NS;
        flash_operation_ends();
        break;
    case IWDG_SR: *c = iwdg_updating(); break;
    case I2C1_SR1:
        i2c_start_when_free();
        i2c_shift();
        i2c_receive();
        break;
    case I2C1_SR2:
        i2c_start_when_free();
        i2c_receive();
        *c = (stm32f4.transfer_active || !bus_free()) && (REG(I2C1_CR1) & I2C_CR1_PE) ? I2C_SR2_BUSY : 0u;
        break;
    default: break;
    }
}

static void access_begins(void)
{
    settle();
    stm32f4_model_advance(STM32F4_MODEL_ACCESS_NS);
}

volatile uint32_t *stm32f4_model_register(uint32_t address)
{
    access_begins();
    refresh(address);
    stm32f4.pending_kind = 1;
    stm32f4.pending_address = address;
    stm32f4.pending_cell = cell(address);
    stm32f4.pending_value = *stm32f4.pending_cell;
    return stm32f4.pending_cell;
}

static uint32_t flash_offset(uint32_t address, uint32_t width)
{
    uint32_t offset = address - STM32F4_MODEL_FLASH;
    if (address < STM32F4_MODEL_FLASH || offset + width > sizeof stm32f4.flash) return 0; /* outside: byte 0 */
    if (flash_busy()) stm32f4.flash_access_while_busy++;
    return offset;
}

volatile uint32_t *stm32f4_model_memory32(uint32_t address)
{
    uint32_t offset, i, word = 0;
    access_begins();
    offset = flash_offset(address, 4u);
    for (i = 0; i < 4u; i++) word |= (uint32_t)stm32f4.flash[offset + i] << (8u * i);
    stm32f4.latch32 = word;
    stm32f4.pending_kind = 2;
    stm32f4.pending_address = STM32F4_MODEL_FLASH + offset;
    stm32f4.pending_value = word;
    return &stm32f4.latch32;
}

volatile uint8_t *stm32f4_model_memory8(uint32_t address)
{
    uint32_t offset;
    access_begins();
    offset = flash_offset(address, 1u);
    stm32f4.latch8 = stm32f4.flash[offset];
    stm32f4.pending_kind = 3;
    stm32f4.pending_address = STM32F4_MODEL_FLASH + offset;
    stm32f4.pending_value = stm32f4.latch8;
    return &stm32f4.latch8;
}
