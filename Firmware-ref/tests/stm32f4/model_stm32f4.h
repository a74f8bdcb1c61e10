/* A register-level model of the STM32F401 peripherals that QEMU's netduinoplus2 does not model, for
 * the port's host tests (ports/stm32f4 built with STM32F4_REGISTER_MODEL): RCC (HSI, HSE bypass that
 * starts or never does, the PLL, the clock switch), SysTick and TIM5 counting model time, FLASH_ACR
 * and the flash controller (keys, sector erase and programming that keep BSY for a while, PSIZE,
 * NOR rules, error flags) over a 512 KB flash array, the IWDG counting at a chosen LSI, DBGMCU, GPIOB's
 * PB8/PB9 as an open-drain bus with a DRV2605L-like slave that can hold SDA low for a number of clocks,
 * and I2C1's master events (START, address, ADDR, TXE/BTF, RXNE, STOP, SWRST).
 *
 * Each access to a register goes through stm32f4_model_register, which hands out the register's
 * word; what the port did with the previous one (read it, or wrote a new value) is seen at the next
 * access or at stm32f4_model_sync. Every access takes model time (STM32F4_MODEL_ACCESS_NS). The model
 * counts what the reference manual forbids (violations) for the tests to check. */
#ifndef MODEL_STM32F4_H
#define MODEL_STM32F4_H

#include <stdint.h>

#define STM32F4_MODEL_ACCESS_NS 20u /* a bus access at 84 MHz, roughly */
#define STM32F4_MODEL_FLASH     0x08000000u
#define STM32F4_MODEL_FLASH_KB  512u
#define STM32F4_MODEL_CELLS     96u
#define STM32F4_MODEL_BYTE_NS   22500u /* a byte and its acknowledge at 400 kHz: 9 x 2.5 us */
#define STM32F4_MODEL_NO_NACK   0xFFu

typedef struct stm32f4_model_cell {
    uint32_t address;
    uint32_t value;
} stm32f4_model_cell;

typedef struct stm32f4_model {
    uint64_t now_ns;
    stm32f4_model_cell cells[STM32F4_MODEL_CELLS];
    unsigned cell_count;
    /* the access handed out last: its address and the value it had then */
    uint32_t pending_address;
    int pending_kind; /* 0 none, 1 register, 2 flash word, 3 flash byte */
    volatile uint32_t *pending_cell;
    uint32_t pending_value;
    volatile uint32_t latch32;
    volatile uint8_t latch8;
    int interrupts_enabled;

    /* clocks */
    int hse_present;         /* the ST-LINK's MCO reaches PH0 (SB16/SB50 fitted) */
    uint64_t hse_on_ns;      /* when HSEON was set */
    int hsebyp_before_hseon; /* HSEBYP was set while HSEON was 0 */
    uint64_t pll_on_ns;
    /* what RM0368 §6.3 forbids: HSEBYP changed while HSEON (§6.3.1), PLLCFGR written while the PLL
     * runs (§6.3.2), SW choosing the PLL before PLLRDY (the switch does not happen), APB1 above its
     * 42 MHz (PPRE1, §6.3.3) */
    uint32_t hsebyp_while_on, pllcfgr_while_on, switch_before_ready, apb1_over_max;
    int acr_read_back;      /* FLASH_ACR read after its LATENCY changed, before the clock switch */
    int latency_at_switch;  /* LATENCY when SW chose the PLL */
    int acr_read_at_switch; /* and whether it had been read back by then */
    uint64_t systick_start_ns;
    uint64_t systick_delivered;    /* SysTick interrupts taken since the counter started */
    void (*systick_handler)(void); /* called at each wrap with TICKINT while interrupts are on; wraps
                                      while they are off merge into one, as the NVIC's pending bit does */
    uint64_t tim5_start_ns;

    /* flash controller */
    uint8_t flash[STM32F4_MODEL_FLASH_KB * 1024u];
    int key_step;   /* 0, or 1 after KEY1 */
    int locked_out; /* a wrong key: locked until reset */
    uint64_t busy_until_ns;
    uint64_t erase_ns; /* a sector erase takes this long */
    uint64_t program_ns;
    uint32_t fail_next;   /* FLASH_SR error bits the next operation ends with */
    uint32_t erases[8];   /* per sector */
    uint32_t erase_psize; /* PSIZE of the last erase */
    uint32_t programs;
    uint64_t kick_to_start_ns; /* from the last watchdog kick to the last STRT */
    uint32_t flash_access_while_busy, cr_write_while_busy, cr_write_while_locked, psize_mismatch, not_erased,
        image_touched, dcache_reset_while_on;
    uint32_t dcache_resets;
    uint32_t started_with_errors; /* STRT or a programming write while an error flag was still set */

    /* watchdog */
    uint32_t lsi_hz;
    int iwdg_started, iwdg_unlocked, iwdg_fired;
    uint64_t last_kick_ns, pr_update_ns, rlr_update_ns; /* PVU/RVU: set until then */
    uint32_t kicks, iwdg_locked_writes;
    /* RM0368 §16.4.4: PR only while PVU is 0, RLR only while RVU is 0; a reload meanwhile reloads the
     * old value */
    uint32_t iwdg_write_while_updating, iwdg_reload_while_updating;

    /* I2C bus: PB8 = SCL, PB9 = SDA */
    uint8_t slave_address;
    uint8_t slave_reg[256];
    uint8_t slave_pointer;
    int slave_first_byte;       /* the next byte written is the register address */
    uint32_t slave_hold_clocks; /* SDA held low until this many more SCL clocks (it lets go as SCL falls) */
    int scl, sda;               /* line levels */
    uint32_t scl_rises, bus_stops, bus_starts, mode_switch_falls;
    int transfer_active, receiving, sr1_read_with_addr, sb_read;
    uint32_t swrsts, transfers_started, slave_writes, i2c_stops;
    /* I2C1 as a transmitter (RM0368 §18.3.3, figure 163): a byte moves from DR to the shift register
     * (TXE 1 again) and takes STM32F4_MODEL_BYTE_NS; BTF when it is sent and DR is empty. */
    uint64_t shift_end_ns; /* 0: the shift register is empty */
    int dr_full;           /* a byte waits in DR behind the one being sent */
    uint8_t dr_byte, shift_byte;
    uint8_t slave_nack_at;        /* the slave refuses this data byte of a write (0: the register address) */
    uint32_t data_bytes;          /* data bytes of the current write so far */
    int arlo_at_address;          /* the next address byte loses arbitration to another master */
    int spurious_berr;            /* the next data byte written sets BERR, which changes nothing (ES0299 §2.8.1) */
    uint64_t other_busy_until_ns; /* another master holds the bus until then */
    int start_pending;            /* START asked for while the bus was busy: sent once it is free */
    /* what the sequence forbids: DR written while TXE is 0 (a byte lost), data before ADDR was cleared
     * (SR1 then SR2), the address without SB read first, STOP while a byte is still to be sent */
    uint32_t dr_overwrites, data_before_addr_cleared, address_without_sb_read, stop_cut;
    /* I2C1 as a receiver (§18.3.3, figure 164): a byte every STM32F4_MODEL_BYTE_NS into DR (RXNE);
     * a second one waits in the shift register (BTF) with SCL stretched until DR is read. The master
     * acknowledges a byte when ACK is set as it ends; with POS the ACK bit decides the byte after
     * (the first is acknowledged). STOP asked for during a byte follows that byte. */
    uint64_t rx_end_ns; /* 0: no byte arriving */
    uint32_t rx_count;
    int rx_shift_full, rx_shift_ack, rx_last_ack, rx_pos_ack, rx_stop_pending;
    uint8_t rx_shift_byte;
    uint32_t rx_stop_after_ack; /* STOP after an acknowledged last byte: the slave may hold SDA */
} stm32f4_model;

extern stm32f4_model stm32f4;

/* Power-on: registers at their reset values (RCC_CR HSION|HSIRDY, FLASH_CR LOCK), the flash erased
 * except the image's sectors 0-3 (0xA5), no HSE, LSI 32 kHz, an erase of 2 ms, a free bus. */
void stm32f4_model_reset(void);
/* Settles the last access (the port returned to the test). */
void stm32f4_model_sync(void);
/* A register's value as the model holds it (no access). */
uint32_t stm32f4_model_peek(uint32_t address);
/* The system clock the RCC registers select (Hz). */
uint32_t stm32f4_model_sysclk(void);
/* The IWDG timeout its PR and RLR give at the model's LSI (ns). */
uint64_t stm32f4_model_iwdg_timeout_ns(void);
/* A slave that holds SDA low for `clocks` more SCL clocks (0: lets go). */
void stm32f4_model_hold_sda(uint32_t clocks);
/* Time passes without an access. */
void stm32f4_model_advance(uint64_t ns);
/* Every count of what the reference manual forbids, summed (0 for a port that keeps every rule). */
uint32_t stm32f4_model_violations(void);

#endif
