/* Clocks: the ST-LINK's 8 MHz MCO as an external clock (HSE bypass) -> PLL -> 84 MHz system clock,
 * APB1 at 42 MHz (its maximum, DS10086 §3.11), APB2 at 84 MHz, two flash wait states; then the
 * peripheral clocks the port uses. The MCO reaches PH0 through solder bridges SB16 and SB50, fitted
 * on current NUCLEO-F401RE revisions and not on the earliest (UM1724 §6.7.1, "OSC clock supply":
 * MB1136 C-02 on, C-01 off): when HSE is not ready within HSE_WAIT_MS the board runs from HSI
 * instead, ±1 % at 25 °C and -4..+4 % from -10 to 85 °C (DS10086 Table 39), and says so
 * (clock_source; INFO's board string). QEMU does not model RCC (its registers read 0), so there HSE
 * never becomes ready (the fallback runs) and the QEMU build waits on no other ready flag: such a
 * wait would spin forever. */
#include "port.h"

#if THRUM_QEMU
#define WAIT_UNTIL(condition) ((void)0)
#else
#define WAIT_UNTIL(condition) \
    do {                      \
    } while (!(condition))
#endif

#define HSI_HZ      16000000u
#define HSE_HZ      8000000u /* the ST-LINK's MCO, fixed at 8 MHz (UM1724 §6.7.1) */
#define HSE_WAIT_MS 5u       /* HSERDY follows six HSE cycles once the clock is there (RM0368 §6.2.1) */

/* VCO input 2 MHz, which RM0368 recommends to limit PLL jitter (§6.3.2, RCC_PLLCFGR, PLLM; DS10086
 * Table 41: 0.95-2.10 MHz in, VCO 192-432 MHz), VCO 2 x 168 = 336 MHz, system 336 / 4 = 84 MHz, USB
 * 336 / 7 = 48 MHz; M is the source's MHz / 2: 4 for HSE, 8 for HSI. */
#define PLL_VCO_INPUT_HZ 2000000u
#define PLL_N            168u
#define PLL_P            1u /* divide by 4 */
#define PLL_Q            7u

uint8_t clock_source;

/* HSE bypass on; ready within HSE_WAIT_MS (timed by SysTick on HSI's 16 MHz), or off again. */
static int hse_started(void)
{
    const uint32_t limit = HSI_HZ / 1000u * HSE_WAIT_MS;
    uint32_t counter;
    int ready;
    RCC_CR |= RCC_CR_HSEBYP; /* written while HSEON is still 0 (RM0368 §6.3.1, RCC_CR) */
    RCC_CR |= RCC_CR_HSEON;
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = SYST_CSR_CLKSOURCE | SYST_CSR_ENABLE;
    /* SysTick counts down from 0xFFFFFF; 0 until it has loaded that (the first cycle after enable) */
    while (!(ready = (RCC_CR & RCC_CR_HSERDY) != 0u) && ((counter = SYST_CVR) == 0u || 0xFFFFFFu - counter < limit)) {}
    SYST_CSR = 0;
    if (!ready) {
        RCC_CR &= ~RCC_CR_HSEON;
        RCC_CR &= ~RCC_CR_HSEBYP; /* writable only while HSE is off (RM0368 §6.3.1): a second write */
    }
    return ready;
}

void clock_init(void)
{
    uint32_t source_hz;
    RCC_CR |= RCC_CR_HSION;
    WAIT_UNTIL(RCC_CR & RCC_CR_HSIRDY);
    clock_source = hse_started() ? CLOCK_HSE_BYPASS : CLOCK_HSI_FALLBACK;
    source_hz = clock_source == CLOCK_HSE_BYPASS ? HSE_HZ : HSI_HZ;
    /* flash latency before the clock rises, read back before it does (RM0368 §3.4.1) */
    FLASH_ACR = FLASH_ACR_LATENCY_2 | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN;
    WAIT_UNTIL((FLASH_ACR & FLASH_ACR_LATENCY_Msk) == FLASH_ACR_LATENCY_2);
    RCC_PLLCFGR = (source_hz / PLL_VCO_INPUT_HZ << RCC_PLLCFGR_PLLM_Pos) | (PLL_N << RCC_PLLCFGR_PLLN_Pos) |
                  (PLL_P << RCC_PLLCFGR_PLLP_Pos) | (PLL_Q << RCC_PLLCFGR_PLLQ_Pos) |
                  (clock_source == CLOCK_HSE_BYPASS ? RCC_PLLCFGR_PLLSRC_HSE : 0u);
    RCC_CR |= RCC_CR_PLLON;
    WAIT_UNTIL(RCC_CR & RCC_CR_PLLRDY);
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_Msk) | RCC_CFGR_PPRE1_DIV2 | RCC_CFGR_SW_PLL;
    WAIT_UNTIL((RCC_CFGR & RCC_CFGR_SWS_Msk) == RCC_CFGR_SWS_PLL);

    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN | RCC_AHB1ENR_GPIOBEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN | RCC_APB1ENR_I2C1EN | RCC_APB1ENR_TIM2EN | RCC_APB1ENR_TIM5EN;
    RCC_APB2ENR |= RCC_APB2ENR_USART1EN;
    (void)RCC_APB2ENR; /* a read after enabling: the clock is on before the first access (ES0299 §2.2.7,
                          "Delay after an RCC peripheral clock enabling") */
}
