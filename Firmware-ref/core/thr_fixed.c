/* Fixed-point maths shared by the players and the renderer: Q15 ramps and conversions, pattern
 * time to board time. 32-bit integers only (no 64-bit arithmetic: it costs a Cortex-M0+ dearly);
 * calls nothing but the compiler's division. */
#include "thr_internal.h"

uint32_t thr_pattern_to_board_us(uint32_t ms, uint32_t frac, uint32_t rate_q8)
{
    /* (ms x 256000 + frac) / rate in two 32-bit steps: ms = q x rate + r */
    uint32_t q = ms / rate_q8, r = ms % rate_q8;
    uint32_t rest = (r * THR_FRAC_PER_MS + frac) / rate_q8; /* r < 4096: < 2^31 */
    if (q > (0xFFFFFFFFu - rest) / THR_FRAC_PER_MS) return 0xFFFFFFFFu;
    return q * THR_FRAC_PER_MS + rest;
}

THR_NOINLINE uint16_t thr_uq8_to_q15(uint8_t q)
{
    return (uint16_t)(((uint32_t)q * 32768u + 127u) / 255u);
}

int32_t thr_sq8_to_q15(uint8_t raw)
{
    /* (|q| x 32768 + 63) / 127 with the sign put back: unsigned division only */
    uint32_t magnitude = raw < 0x80u ? raw : 256u - raw;
    int32_t v = (int32_t)((magnitude * 32768u + 63u) / 127u);
    return raw < 0x80u ? v : -v;
}

uint32_t thr_isqrt(uint32_t x)
{
    /* digit by digit, two bits a step: no division */
    uint32_t root = 0, bit = 1u << 30;
    while (bit > x) bit >>= 2;
    while (bit) {
        if (x >= root + bit) {
            x -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    return root;
}

uint32_t thr_sqrt_q15(uint32_t f)
{
    uint32_t n = f << 15, root = thr_isqrt(n);        /* f <= 32768: n <= 2^30, root <= 32768 */
    return n - root * root > root ? root + 1u : root; /* n - root^2 > root: sqrt(n) > root + 1/2 */
}
