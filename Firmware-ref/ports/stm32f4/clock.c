/* Clocks: HSI (16 MHz) -> PLL -> 84 MHz system clock, APB1 at 42 MHz (its maximum), APB2 at
 * 84 MHz, two flash wait states; then the peripheral clocks the port uses. QEMU does not model RCC
 * (its registers read 0), so the QEMU build writes the same registers but waits on no ready flag:
 * a wait would spin forever. */
#include "port.h"

#if THRUM_QEMU
#define WAIT_UNTIL(condition) ((void)0)
#else
#define WAIT_UNTIL(condition) \
    do {                      \
    } while (!(condition))
#endif

/* VCO input 16 MHz / 16 = 1 MHz, VCO 336 MHz, system 336 / 4 = 84 MHz, USB 336 / 7 = 48 MHz */
#define PLL_M 16u
#define PLL_N 336u
#define PLL_P 1u /* divide by 4 */
#define PLL_Q 7u

void clock_init(void)
{
    RCC_CR |= RCC_CR_HSION;
    WAIT_UNTIL(RCC_CR & RCC_CR_HSIRDY);
    /* flash latency before the clock rises */
    FLASH_ACR = FLASH_ACR_LATENCY_2 | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN | FLASH_ACR_DCEN;
    RCC_PLLCFGR = (PLL_M << RCC_PLLCFGR_PLLM_Pos) | (PLL_N << RCC_PLLCFGR_PLLN_Pos) | (PLL_P << RCC_PLLCFGR_PLLP_Pos) |
                  (PLL_Q << RCC_PLLCFGR_PLLQ_Pos); /* source HSI */
    RCC_CR |= RCC_CR_PLLON;
    WAIT_UNTIL(RCC_CR & RCC_CR_PLLRDY);
    RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_Msk) | RCC_CFGR_PPRE1_DIV2 | RCC_CFGR_SW_PLL;
    WAIT_UNTIL((RCC_CFGR & RCC_CFGR_SWS_Msk) == RCC_CFGR_SWS_PLL);

    RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN | RCC_AHB1ENR_GPIOBEN;
    RCC_APB1ENR |= RCC_APB1ENR_USART2EN | RCC_APB1ENR_I2C1EN | RCC_APB1ENR_TIM2EN;
    RCC_APB2ENR |= RCC_APB2ENR_USART1EN;
    (void)RCC_APB2ENR; /* a read after enabling: the clock is on before the first access (errata) */
}
