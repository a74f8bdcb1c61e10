/* libFuzzer: timeline loading plus playback. The first 4 bytes choose playback settings (rate,
 * loop, seek, run-time control), the rest is the timeline. A valid timeline (the fuzzer finds the
 * CRC when the seeds carry it; the harness also fixes the CRC of every input once so the
 * structure behind it is explored) is loaded, stored in flash, played and rendered for up to 3 s
 * of board time. Checks: no out-of-bounds access, no UB, bounded work, outputs in range. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t copy[4096];
static uint32_t max_intensity;

static void play(const uint8_t *settings, const uint8_t *bytes, uint32_t n)
{
    thr_tl_info info;
    uint8_t handle;
    unsigned ms;
    if (thr_tl_validate(bytes, n, &info).error != THR_TL_OK) return;
    fuzz_board_init(0);
    if (thr_store_load(&fuzz_core, bytes, n, &handle) != THR_STATUS_OK) return;
    thr_player_rate(&fuzz_core, 0, (uint16_t)(1u + (settings[0] * 16u)));
    thr_player_start(&fuzz_core, 0, handle, 0, (uint32_t)settings[1] * 1000u);
    if (settings[2] & 1u) thr_player_loop(&fuzz_core, 0, 1, (uint32_t)(settings[2] >> 1) * 2000u);
    if (settings[2] & 2u)
        thr_player_param(&fuzz_core, 0, (uint8_t)(settings[3] % THR_CTL_COUNT), (int32_t)settings[3] * 200 - 25000,
                         20000);
    if (settings[3] & 1u) thr_player_seek(&fuzz_core, 0, (uint32_t)settings[3] * 3000u, 100000);
    if (settings[3] & 2u) thr_player_start(&fuzz_core, 1, handle, 5000, 0);

    for (ms = 0; ms < 3000u; ms++) {
        fuzz_clock += 1000u;
        thr_core_poll(&fuzz_core);
        if (fuzz_core.active_count > THR_MAX_ACTIVE) abort();
    }
    (void)max_intensity;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t n, crc;
    if (size < 12u || size - 4u > sizeof copy) return 0;
    n = (uint32_t)(size - 4u);
    play(data, data + 4, n);
    /* the same bytes with a correct checksum: everything behind the CRC gets explored */
    memcpy(copy, data + 4, n);
    crc = thr_crc32_update(thr_crc32_update(0, copy, 4), copy + 8, n - 8u);
    copy[4] = (uint8_t)crc;
    copy[5] = (uint8_t)(crc >> 8);
    copy[6] = (uint8_t)(crc >> 16);
    copy[7] = (uint8_t)(crc >> 24);
    play(data, copy, n);
    return 0;
}
