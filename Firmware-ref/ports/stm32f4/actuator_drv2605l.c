/* The channels' DRV2605L chips (board_actuator.h): the configuration comes from the board's
 * channel ratings; closed loop (the chip tracks the LRA's resonance itself); standby after 100 ms
 * at drive 0. A calibration's result is kept in RAM for the chip's next init (not in flash yet).
 * With THRUM_MUX the chips talk through the TCA9548A's downstream HAL, bus n being port n. */
#include "board_actuator.h"

#include "drv2605l.h"
#include "port.h"
#if THRUM_MUX
#include "tca9548a.h"

static tca9548a mux;
static thr_hal behind_mux;
#endif

#define STANDBY_AFTER_MS 100u

static drv2605l_config chip_config[THR_MAX_CHANNELS];
static drv2605l chip[THR_MAX_CHANNELS];
static uint8_t chip_count;

void board_actuator_init(const thr_hal *hal, const thr_board_config *config)
{
    uint8_t channel;
    chip_count = config->channel_count;
#if THRUM_MUX
    /* a mux that does not answer fails every select: each channel then reports itself missing */
    (void)tca9548a_init(&mux, hal, 0, THRUM_MUX_ADDRESS);
    tca9548a_downstream_hal(&mux, &behind_mux);
    hal = &behind_mux;
#endif
    for (channel = 0; channel < chip_count; channel++) {
        const thr_channel_config *rating = &config->channels[channel];
        drv2605l_config *c = &chip_config[channel];
        c->bus = channel;
        c->address = DRV2605L_ADDRESS;
        c->kind = rating->kind;
        c->open_loop = 0;
        c->rated_mv = rating->rated_mv;
        c->max_mv = rating->max_mv;
        c->resonant_dhz = rating->resonant_dhz;
        c->standby_after_ms = STANDBY_AFTER_MS;
        (void)drv2605l_init(&chip[channel], hal, c, 0, tick_now_us()); /* a missing chip reports itself */
    }
}

void board_actuator_write(uint8_t channel, int16_t drive_q14)
{
    if (channel < chip_count) drv2605l_write(&chip[channel], drive_q14);
}

thr_status board_actuator_calibrate_start(uint8_t channel)
{
    if (channel >= chip_count) return THR_STATUS_BAD_ARGUMENT;
    return drv2605l_calibrate_start(&chip[channel], tick_now_us());
}

int board_actuator_calibrate_poll(uint8_t channel, thr_calibration *result)
{
    if (channel >= chip_count) {
        result->status = THR_STATUS_BAD_ARGUMENT;
        return 1;
    }
    return drv2605l_calibrate_poll(&chip[channel], tick_now_us(), result);
}

/* One chip a pass of the main loop (at least one a millisecond): their STATUS reads, due together
 * every 50 ms, then never pile up in one millisecond of the bus (about 140 us each behind the mux). */
void board_actuator_poll(thr_core *core)
{
    static uint8_t next;
    uint8_t channel = next;
    thr_fault fault;
    if (chip_count == 0u) return;
    next = (uint8_t)((next + 1u) % chip_count);
    if (drv2605l_poll(&chip[channel], tick_now_us(), &fault)) thr_core_channel_fault(core, channel, fault);
}
