/* Byte helpers, the bottom layer of the core: CRCs, UTF-8, little-endian fields and a byte copy.
 * They call nothing, so every other file may use them. */
#ifndef THR_BYTES_H
#define THR_BYTES_H

#include <stdint.h>

/* For small helpers with many call sites, where a call is shorter than the inlined body. */
#if defined(__GNUC__) || defined(__clang__)
#define THR_NOINLINE __attribute__((noinline))
#else
#define THR_NOINLINE
#endif
/* For a static helper whose body costs less than the calls to it with link-time optimisation (measured
 * with `make size`): gcc at -Os keeps it out of line otherwise. */
#if defined(__GNUC__) || defined(__clang__)
#define THR_INLINE static inline __attribute__((always_inline))
#else
#define THR_INLINE static inline
#endif
/* For accessors that are a load or a store (the generated message fields, thr_messages.h): inlined
 * even where a size-optimising build would rather call one copy (a call costs more than the body). */
#if defined(__GNUC__) || defined(__clang__)
#define THR_ACCESSOR static inline __attribute__((always_inline))
#else
#define THR_ACCESSOR static inline
#endif

/* Makes the compiler forget how pointer p was worked out, so that it keeps p in a register and
 * reaches the fields through it. Where the base is a constant (a board's one core, with link-time
 * optimisation), gcc otherwise works out base + index x size + offset again for every field: on
 * Thumb-1 (ARMv6-M: Cortex-M0, M0+) a few instructions and often a literal each, about 500 bytes
 * of the 16 KB build in all. Thumb-2 reaches any such field in one instruction, and there the
 * barrier would only cost time, so elsewhere it is nothing. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__ARM_ARCH_ISA_THUMB) && __ARM_ARCH_ISA_THUMB == 1
#define THR_KEEP(p) __asm__("" : "+r"(p))
#else
#define THR_KEEP(p) ((void)0)
#endif

/* Bitwise CRC with a reflected polynomial and no table: one loop serves both CRCs below. */
uint32_t thr_crc_reflected(uint32_t poly, uint32_t crc, const uint8_t *data, uint32_t length);
/* CRC-32C (Castagnoli): the wire's frame CRC and the hash of uploaded and stored timelines. */
uint32_t thr_crc32c_update(uint32_t crc, const uint8_t *data, uint32_t length);
/* CRC-32/ISO-HDLC: the timeline checksum and the flash bank headers. */
uint32_t thr_crc32_update(uint32_t crc, const uint8_t *data, uint32_t length);

/* Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF): 1 when valid. */
int thr_utf8_valid(const uint8_t *s, uint32_t n);

/* Byte copy, front to back, so also for moves towards lower addresses. Used instead of
 * memcpy/memmove: the C library's versions cost a Cortex-M0+ about 320 bytes of flash, and every
 * copy in the core is short or rare. (memset stays: a port's start-up code has it anyway.) */
void thr_copy(void *dst, const void *src, uint32_t n);

/* Writes `width` bytes of v little-endian and returns the position after them: one shared loop
 * rather than inlined byte stores at every field of a message. */
uint8_t *thr_put_le(uint8_t *p, uint32_t v, unsigned width);

static inline void thr_put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void thr_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline uint32_t thr_get16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}
static inline uint32_t thr_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
