/* The STM32F4 registers and bits this port uses, each defined once, named as in ST's reference
 * manuals RM0368 (STM32F401) and RM0090 (STM32F405, the chip QEMU's netduinoplus2 models), and the
 * Cortex-M4 core registers (ARMv7-M Architecture Reference Manual). No vendor SDK: a register is
 * a volatile 32-bit word at its address. Only what the port touches is here. */
#ifndef STM32F4_REGS_H
#define STM32F4_REGS_H

#include <stdint.h>

/* A register, and the flash memory as data (programmed and read by flash.c). The host tests
 * (Firmware-ref/tests/stm32f4) build the port's files with STM32F4_REGISTER_MODEL: every access then
 * goes through the register model, which sees each read and write in order. */
#ifdef STM32F4_REGISTER_MODEL
volatile uint32_t *stm32f4_model_register(uint32_t address);
volatile uint32_t *stm32f4_model_memory32(uint32_t address);
volatile uint8_t *stm32f4_model_memory8(uint32_t address);
void stm32f4_model_interrupts(int enabled);
#define STM32F4_REG(address)   (*stm32f4_model_register(address))
#define STM32F4_MEM32(address) (*stm32f4_model_memory32(address))
#define STM32F4_MEM8(address)  (*stm32f4_model_memory8(address))
#define CPU_INTERRUPTS_OFF()   stm32f4_model_interrupts(0)
#define CPU_INTERRUPTS_ON()    stm32f4_model_interrupts(1)
#else
#define STM32F4_REG(address)   (*(volatile uint32_t *)(address))
#define STM32F4_MEM32(address) (*(volatile uint32_t *)(address))
#define STM32F4_MEM8(address)  (*(volatile uint8_t *)(address))
#define CPU_INTERRUPTS_OFF()   __asm__ volatile("cpsid i" ::: "memory")
#define CPU_INTERRUPTS_ON()    __asm__ volatile("cpsie i" ::: "memory")
#endif

/* ---- RCC (RM0368 §6.3) ---- */
#define RCC_BASE               0x40023800u
#define RCC_CR                 STM32F4_REG(RCC_BASE + 0x00u)
#define RCC_CR_HSION           (1u << 0)
#define RCC_CR_HSIRDY          (1u << 1)
#define RCC_CR_HSEON           (1u << 16)
#define RCC_CR_HSERDY          (1u << 17)
#define RCC_CR_HSEBYP          (1u << 18) /* HSE from an external clock (the ST-LINK's MCO), RM0368 §6.2.1 */
#define RCC_CR_PLLON           (1u << 24)
#define RCC_CR_PLLRDY          (1u << 25)
#define RCC_PLLCFGR            STM32F4_REG(RCC_BASE + 0x04u)
#define RCC_PLLCFGR_PLLM_Pos   0u
#define RCC_PLLCFGR_PLLN_Pos   6u
#define RCC_PLLCFGR_PLLP_Pos   16u /* 0: /2, 1: /4, 2: /6, 3: /8 */
#define RCC_PLLCFGR_PLLSRC_HSE (1u << 22)
#define RCC_PLLCFGR_PLLQ_Pos   24u
#define RCC_CFGR               STM32F4_REG(RCC_BASE + 0x08u)
#define RCC_CFGR_SW_PLL        (2u << 0)
#define RCC_CFGR_SW_Msk        (3u << 0)
#define RCC_CFGR_SWS_PLL       (2u << 2)
#define RCC_CFGR_SWS_Msk       (3u << 2)
#define RCC_CFGR_PPRE1_DIV2    (4u << 10)
#define RCC_AHB1ENR            STM32F4_REG(RCC_BASE + 0x30u)
#define RCC_AHB1ENR_GPIOAEN    (1u << 0)
#define RCC_AHB1ENR_GPIOBEN    (1u << 1)
#define RCC_APB1ENR            STM32F4_REG(RCC_BASE + 0x40u)
#define RCC_APB1ENR_TIM2EN     (1u << 0)
#define RCC_APB1ENR_TIM5EN     (1u << 3)
#define RCC_APB1ENR_USART2EN   (1u << 17)
#define RCC_APB1ENR_I2C1EN     (1u << 21)
#define RCC_APB2ENR            STM32F4_REG(RCC_BASE + 0x44u)
#define RCC_APB2ENR_USART1EN   (1u << 4)
#define RCC_APB1RSTR           STM32F4_REG(RCC_BASE + 0x20u)
#define RCC_APB1RSTR_I2C1RST   (1u << 21)
#define RCC_CSR                STM32F4_REG(RCC_BASE + 0x74u)
#define RCC_CSR_RMVF           (1u << 24)
#define RCC_CSR_IWDGRSTF       (1u << 29)

/* ---- FLASH interface (RM0368 §3.8) ---- */
#define FLASH_BASE            0x40023C00u
#define FLASH_ACR             STM32F4_REG(FLASH_BASE + 0x00u)
#define FLASH_ACR_LATENCY_2   (2u << 0) /* 2 wait states: 84 MHz at 2.7-3.6 V (DS10086 Table 15) */
#define FLASH_ACR_LATENCY_Msk (15u << 0)
#define FLASH_ACR_PRFTEN      (1u << 8)
#define FLASH_ACR_ICEN        (1u << 9)
#define FLASH_ACR_DCEN        (1u << 10)
#define FLASH_ACR_DCRST       (1u << 12) /* resets the data cache; only while DCEN is 0 */
#define FLASH_KEYR            STM32F4_REG(FLASH_BASE + 0x04u)
#define FLASH_KEY1            0x45670123u
#define FLASH_KEY2            0xCDEF89ABu
#define FLASH_SR              STM32F4_REG(FLASH_BASE + 0x0Cu)
#define FLASH_SR_EOP          (1u << 0)
#define FLASH_SR_OPERR        (1u << 1)
#define FLASH_SR_WRPERR       (1u << 4)
#define FLASH_SR_PGAERR       (1u << 5)
#define FLASH_SR_PGPERR       (1u << 6)
#define FLASH_SR_PGSERR       (1u << 7)
#define FLASH_SR_RDERR        (1u << 8)
#define FLASH_SR_BSY          (1u << 16)
#define FLASH_SR_ERRORS \
    (FLASH_SR_OPERR | FLASH_SR_WRPERR | FLASH_SR_PGAERR | FLASH_SR_PGPERR | FLASH_SR_PGSERR | FLASH_SR_RDERR)
#define FLASH_CR           STM32F4_REG(FLASH_BASE + 0x10u)
#define FLASH_CR_PG        (1u << 0)
#define FLASH_CR_SER       (1u << 1)
#define FLASH_CR_SNB_Pos   3u
#define FLASH_CR_SNB_Msk   (0xFu << 3)
#define FLASH_CR_PSIZE_8   (0u << 8)
#define FLASH_CR_PSIZE_32  (2u << 8) /* word programming: needs VDD 2.7-3.6 V (DS10086 Tables 15, 45) */
#define FLASH_CR_PSIZE_Msk (3u << 8)
#define FLASH_CR_STRT      (1u << 16)
#define FLASH_CR_LOCK      (1u << 31)

/* ---- GPIO (RM0368 §8.4) ---- */
#define GPIOA_BASE         0x40020000u
#define GPIOB_BASE         0x40020400u
#define GPIO_MODER(base)   STM32F4_REG((base) + 0x00u) /* 2 bits a pin: 2 = alternate function */
#define GPIO_OTYPER(base)  STM32F4_REG((base) + 0x04u) /* 1 = open drain */
#define GPIO_OSPEEDR(base) STM32F4_REG((base) + 0x08u)
#define GPIO_PUPDR(base)   STM32F4_REG((base) + 0x0Cu) /* 2 bits a pin: 1 = pull-up */
#define GPIO_IDR(base)     STM32F4_REG((base) + 0x10u) /* the pins' levels */
#define GPIO_BSRR(base)    STM32F4_REG((base) + 0x18u) /* write: bits 0-15 set ODR bits, 16-31 reset them */
#define GPIO_AFRL(base)    STM32F4_REG((base) + 0x20u) /* 4 bits a pin, pins 0-7 */
#define GPIO_AFRH(base)    STM32F4_REG((base) + 0x24u) /* pins 8-15 */
#define GPIO_MODE_OUTPUT   1u
#define GPIO_MODE_AF       2u
#define GPIO_SPEED_HIGH    2u /* OSPEEDR: 2 bits a pin */
#define GPIO_PULL_UP       1u
#define GPIO_AF4_I2C1      4u /* PB8/PB9 (DS10086 Table 9) */
#define GPIO_AF7_USART     7u /* PA2/PA3 USART2, PA9/PA10 USART1 (DS10086 Table 9) */

/* ---- USART (RM0368 §19.6); USART1 on APB2, USART2 on APB1 ---- */
#define USART1_BASE      0x40011000u
#define USART2_BASE      0x40004400u
#define USART_SR(base)   STM32F4_REG((base) + 0x00u)
#define USART_SR_ORE     (1u << 3)
#define USART_SR_RXNE    (1u << 5)
#define USART_SR_TC      (1u << 6)
#define USART_SR_TXE     (1u << 7)
#define USART_DR(base)   STM32F4_REG((base) + 0x04u)
#define USART_BRR(base)  STM32F4_REG((base) + 0x08u)
#define USART_CR1(base)  STM32F4_REG((base) + 0x0Cu)
#define USART_CR1_RE     (1u << 2)
#define USART_CR1_TE     (1u << 3)
#define USART_CR1_RXNEIE (1u << 5)
#define USART_CR1_UE     (1u << 13)
#define USART2_IRQn      38u

/* ---- I2C (RM0368 §18.6) ---- */
#define I2C1_BASE        0x40005400u
#define I2C1_CR1         STM32F4_REG(I2C1_BASE + 0x00u)
#define I2C_CR1_PE       (1u << 0)
#define I2C_CR1_START    (1u << 8)
#define I2C_CR1_STOP     (1u << 9)
#define I2C_CR1_ACK      (1u << 10)
#define I2C_CR1_POS      (1u << 11)
#define I2C_CR1_SWRST    (1u << 15)
#define I2C1_CR2         STM32F4_REG(I2C1_BASE + 0x04u)
#define I2C_CR2_FREQ_Pos 0u /* APB1 clock in MHz */
#define I2C1_DR          STM32F4_REG(I2C1_BASE + 0x10u)
#define I2C1_SR1         STM32F4_REG(I2C1_BASE + 0x14u)
#define I2C_SR1_SB       (1u << 0)
#define I2C_SR1_ADDR     (1u << 1)
#define I2C_SR1_BTF      (1u << 2)
#define I2C_SR1_RXNE     (1u << 6)
#define I2C_SR1_TXE      (1u << 7)
#define I2C_SR1_BERR     (1u << 8)
#define I2C_SR1_ARLO     (1u << 9)
#define I2C_SR1_AF       (1u << 10) /* acknowledge failure: the slave NACKed */
#define I2C1_SR2         STM32F4_REG(I2C1_BASE + 0x18u)
#define I2C_SR2_BUSY     (1u << 1)
#define I2C1_CCR         STM32F4_REG(I2C1_BASE + 0x1Cu)
#define I2C_CCR_FS       (1u << 15) /* fast mode (400 kHz) */
#define I2C1_TRISE       STM32F4_REG(I2C1_BASE + 0x20u)

/* ---- TIM2 and TIM5, 32-bit general-purpose timers on APB1 (RM0368 §13.4). TIM5 counts board time
 * (tick.c); TIM2 counts instructions under QEMU (-icount shift=0), whose model clocks both at 1 GHz ---- */
#define TIM2_BASE     0x40000000u
#define TIM5_BASE     0x40000C00u
#define TIM_CR1(base) STM32F4_REG((base) + 0x00u)
#define TIM_CR1_CEN   (1u << 0)
#define TIM_EGR(base) STM32F4_REG((base) + 0x14u)
#define TIM_EGR_UG    (1u << 0)
#define TIM_CNT(base) STM32F4_REG((base) + 0x24u)
#define TIM_PSC(base) STM32F4_REG((base) + 0x28u)
#define TIM_ARR(base) STM32F4_REG((base) + 0x2Cu)

/* ---- IWDG (RM0368 §16.4), clocked by the ~32 kHz LSI ---- */
#define IWDG_BASE       0x40003000u
#define IWDG_KR         STM32F4_REG(IWDG_BASE + 0x00u)
#define IWDG_KEY_RELOAD 0xAAAAu
#define IWDG_KEY_ENABLE 0x5555u /* unlocks PR and RLR */
#define IWDG_KEY_START  0xCCCCu
#define IWDG_PR         STM32F4_REG(IWDG_BASE + 0x04u)
#define IWDG_PR_DIV128  5u /* the counter's clock: LSI / (4 << PR) */
#define IWDG_RLR        STM32F4_REG(IWDG_BASE + 0x08u)
#define IWDG_SR         STM32F4_REG(IWDG_BASE + 0x0Cu)
#define IWDG_SR_PVU     (1u << 0)
#define IWDG_SR_RVU     (1u << 1)

/* ---- device electronic signature (RM0368 §24.1): 96-bit unique ID ---- */
#define UID_BASE 0x1FFF7A10u

/* ---- Cortex-M4 core ---- */
#define SYST_CSR              STM32F4_REG(0xE000E010u)
#define SYST_CSR_ENABLE       (1u << 0)
#define SYST_CSR_TICKINT      (1u << 1)
#define SYST_CSR_CLKSOURCE    (1u << 2) /* 1: processor clock */
#define SYST_RVR              STM32F4_REG(0xE000E014u)
#define SYST_CVR              STM32F4_REG(0xE000E018u)
#define NVIC_ISER(n)          STM32F4_REG(0xE000E100u + 4u * (n))
#define NVIC_ICER(n)          STM32F4_REG(0xE000E180u + 4u * (n))
#define SCB_ICSR              STM32F4_REG(0xE000ED04u)
#define SCB_ICSR_PENDSTSET    (1u << 26)
#define SCB_VTOR              STM32F4_REG(0xE000ED08u) /* the vector table's address */
#define SCB_AIRCR             STM32F4_REG(0xE000ED0Cu)
#define SCB_AIRCR_VECTKEY     (0x05FAu << 16)
#define SCB_AIRCR_SYSRESETREQ (1u << 2)

/* ---- DBGMCU (RM0368 §23.16): what a halted core stops, and the debug port in low-power modes ---- */
#define DBGMCU_CR                STM32F4_REG(0xE0042004u)
#define DBGMCU_CR_DBG_SLEEP      (1u << 0) /* the debug port stays clocked during wfi */
#define DBGMCU_APB1_FZ           STM32F4_REG(0xE0042008u)
#define DBGMCU_APB1_FZ_IWDG_STOP (1u << 12) /* the IWDG stops while the core is halted */

#endif
