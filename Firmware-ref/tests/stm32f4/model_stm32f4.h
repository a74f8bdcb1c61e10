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

    /* watchdog */
    uint32_t lsi_hz;
    int iwdg_started, iwdg_unlocked, iwdg_fired;
    uint64_t last_kick_ns, iwdg_update_ns;
    uint32_t kicks, iwdg_locked_writes;

    /* I2C bus: PB8 = SCL, PB9 = SDA */
    uint8_t slave_address;
    uint8_t slave_reg[256];
    uint8_t slave_pointer;
    int slave_first_byte;       /* the next byte written is the register address */
    uint32_t slave_hold_clocks; /* SDA held low until this many more SCL clocks (it lets go as SCL falls) */
    int scl, sda;               /* line levels */
    uint32_t scl_rises, bus_stops, bus_starts, mode_switch_falls;
    int transfer_active, receiving, sr1_read_with_addr, sb_read;
    uint32_t swrsts, transfers_started, slave_writes;
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

#endif
