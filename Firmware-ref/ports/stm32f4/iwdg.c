/* The independent watchdog, clocked by LSI, 17-47 kHz (the F401 datasheet, DS10086 Table 40, "LSI
 * oscillator characteristics"). Its timeout is 4 x 2^PR x (RLR + 1) / f_LSI (RM0368 §16.3, IWDG
 * functional description) and must outlast the longest flash sector erase, which the erase does not
 * kick (flash.c): 2 s for 128 KB at x32 parallelism (DS10086 Table 45, "Flash memory programming",
 * t_ERASE128KB max). With LSI / 128 and 1,250 counts that is 1250 x 128 / 47 kHz = 3.40 s at LSI's
 * fastest (5.0 s at 32 kHz, 9.4 s at 17 kHz). Once started it cannot be stopped. */
#include "port.h"

#define RELOAD_COUNTS 1250u

void watchdog_start(void)
{
#if THRUM_DEBUG
    /* a debug build: the IWDG stops while the core is halted at a breakpoint, and the debug port
     * stays clocked through wfi (RM0368 §23.16, DBGMCU_APB1_FZ and DBGMCU_CR) */
    DBGMCU_APB1_FZ |= DBGMCU_APB1_FZ_IWDG_STOP;
    DBGMCU_CR |= DBGMCU_CR_DBG_SLEEP;
#endif
    IWDG_KR = IWDG_KEY_START; /* starts the LSI and the counter */
    IWDG_KR = IWDG_KEY_ENABLE;
    IWDG_PR = IWDG_PR_DIV128;
    IWDG_RLR = RELOAD_COUNTS - 1u;
    while (IWDG_SR & (IWDG_SR_PVU | IWDG_SR_RVU)) {}
    IWDG_KR = IWDG_KEY_RELOAD;
}

void watchdog_kick(void)
{
    IWDG_KR = IWDG_KEY_RELOAD;
}
