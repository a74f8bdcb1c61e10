/* The actuator drive until the DRV2605L driver is merged: each channel's level goes to the
 * DRV2605L's real-time playback register (RTP_INPUT, 0x02) as a signed byte, written only when it
 * changes. On QEMU the write shows up in the I2C trace as `i2c 5a 02 VV`. */
#include "board_actuator.h"

#include "port.h"

#define DRV2605L_ADDRESS 0x5Au
#define REG_RTP_INPUT    0x02u

static int16_t last_level[THR_MAX_CHANNELS];

void board_actuator_init(void)
{
    uint8_t channel;
    for (channel = 0; channel < THR_MAX_CHANNELS; channel++) last_level[channel] = 0;
}

void board_actuator_write(uint8_t channel, int16_t drive_q14, uint16_t frequency_dhz)
{
    /* Q14 (+-16384) to the RTP's signed 8 bits (+-127) */
    int16_t level = (int16_t)(drive_q14 / 128);
    uint8_t command[2];
    (void)frequency_dhz; /* the DRV2605L follows the LRA's resonance itself */
    if (level > 127) level = 127;
    if (channel >= THR_MAX_CHANNELS || level == last_level[channel]) return;
    last_level[channel] = level;
    command[0] = REG_RTP_INPUT;
    command[1] = (uint8_t)level;
    (void)i2c_transfer(0, DRV2605L_ADDRESS, command, 2, 0, 0);
}
