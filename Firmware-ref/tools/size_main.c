/* A minimal Cortex-M0+ firmware around the core, for `make size`: the stub board's HAL and
 * configuration (board/stub_board.c), the core's init, the receive interrupt and the main loop.
 * The linker keeps exactly what a board that runs the link needs, so the figure is the code a real
 * port carries, library helpers (division, memset) included. */
#include "stub_board.h"

static stub_board board;

void uart_irq(void);
#ifdef SIZE_BASELINE
/* The same firmware without the core: the port's own code (the stub board's HAL functions and
 * configuration) stays, because an empty asm statement that may read all memory is handed the
 * board (with link-time optimisation, nothing else would read it and it would be dropped), so the
 * difference is what the core costs. */
void uart_irq(void)
{
    __asm__ volatile("" : : "r"(&board) : "memory");
}
#else
void uart_irq(void)
{
    thr_core_rx_byte(&board.core, (uint8_t)board.clock_us);
}
#endif

int main(void);
int main(void)
{
    stub_board_init(&board);
    board.config.slot_size = 4096;
#ifdef SIZE_BASELINE
    for (;;) uart_irq(); /* the board above is set up all the same */
#else
    /* as a port calls it (stub_board_start would do the same through a pointer, which keeps
     * link-time optimisation from seeing the one core there is) */
    thr_core_init(&board.core, &board.hal, &board.config, board.memory, sizeof board.memory);
    for (;;) thr_core_poll(&board.core);
#endif
}
