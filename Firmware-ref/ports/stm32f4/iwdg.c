/* The independent watchdog: about 2 s (LSI ~32 kHz / 64 = 500 Hz, 1000 counts), long enough for
 * a 128 KB flash erase, whose wait kicks it anyway (flash.c). Once started it cannot be stopped. */
#include "port.h"

#define RELOAD_COUNTS 1000u

void watchdog_start(void)
{
    IWDG_KR = IWDG_KEY_START; /* starts the LSI and the counter */
    IWDG_KR = IWDG_KEY_ENABLE;
    IWDG_PR = IWDG_PR_DIV64;
    IWDG_RLR = RELOAD_COUNTS - 1u;
    while (IWDG_SR & (IWDG_SR_PVU | IWDG_SR_RVU)) {}
    IWDG_KR = IWDG_KEY_RELOAD;
}

void watchdog_kick(void)
{
    IWDG_KR = IWDG_KEY_RELOAD;
}
