/* QEMU: instructions per tick. TIM2 runs free at QEMU's nominal 1 GHz; with `-icount shift=0`
 * QEMU advances virtual time 1 ns per instruction, so TIM2 counts instructions (without icount
 * it counts host nanoseconds, which mean nothing here). The worst tick since boot goes out on
 * USART1 as `tick max N` every 1,000 ticks, so a host sees it while a pattern plays. */
#include "port.h"

#define REPORT_EVERY 1000u

static uint32_t worst, ticks;

void tick_meter_init(void)
{
    TIM_PSC(TIM2_BASE) = 0;
    TIM_ARR(TIM2_BASE) = 0xFFFFFFFFu;
    TIM_EGR(TIM2_BASE) = TIM_EGR_UG; /* loads the prescaler */
    TIM_CR1(TIM2_BASE) = TIM_CR1_CEN;
}

void tick_meter_record(uint32_t instructions)
{
    if (instructions > worst) worst = instructions;
    if (++ticks % REPORT_EVERY == 0u) {
        trace_text("tick max ");
        trace_decimal(worst);
        trace_end_line();
    }
}
