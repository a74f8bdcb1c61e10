/* The commands (PROTOCOL.md §5): each accepted host-to-board message calls the store, the flash
 * slots, the players, the streams or the engine, and is answered with one reply carrying its tag
 * (§5.2); a command whose time had passed runs at once and LATE follows the reply. */
#include "thr_flash.h"
#include "thr_link.h"
#include "thr_messages.h"

/* A command's at_time: one already past means now, and a LATE report follows the reply (§5.2). */
static uint32_t at_time(thr_core *core, uint32_t at)
{
    int32_t late = (int32_t)(core->now - at);
    if (at == 0u) return core->now;   /* "now": never late (§1) */
    if (late > 0) {
        core->link.late_pending = 1;
        core->link.late_by = (uint32_t)late;
        return core->now;
    }
    return at;
}

static void reply_result(thr_core *core, uint16_t tag, uint8_t status)
{
    uint8_t p[3];
    thr_put16(p, tag);
    p[2] = status;
    thr_link_send_reliable(core, THR_MSG_RESULT, p, 3);
}

static uint8_t slot_of_wire_parameter(uint8_t parameter)
{
    /* wire enum: 0-5 as the timeline; 6 pan, 7 pitch, 8-10 audio attack/decay/release, while the
     * timeline has 6 pan, 7 brightness, 8 pitch, 9-11: from 7 on, the timeline code is one more */
    return parameter < 11u ? thr_ctl_slot_of_timeline_code((uint8_t)(parameter + (parameter >= 7u))) : THR_CTL_NONE;
}

static void upload_status(thr_core *core, uint16_t tag, uint8_t status, uint8_t handle)
{
    uint8_t p[8];
    thr_put16(p, tag);
    p[2] = status;
    p[3] = handle;
    thr_put32(p + 4, handle < THR_MAX_TIMELINES ? core->timeline[handle].received : 0u);
    thr_link_send_reliable(core, THR_MSG_UPLOAD_STATUS, p, 8);
}

static void trace_or_calibration(thr_core *core, const thr_frame *f, uint16_t tag, const uint32_t *v)
{
    const uint8_t *a = f->payload;
    uint8_t p[12];
    uint8_t channel = a[2];
    thr_put16(p, tag);
    p[3] = channel;
    if (f->type == THR_MSG_TRACE_READ) {
        /* no trace buffer on this board: the simulator reads samples through the HAL's trace hook */
        p[2] = THR_STATUS_NOT_SUPPORTED;
        thr_put32(p + 4, v[2]);   /* start */
        thr_put16(p + 8, core->tick_us > 0xFFFFu ? 0xFFFFu : core->tick_us);
        thr_link_send_reliable(core, THR_MSG_TRACE_DATA, p, 10);
    } else {
        int ok = channel < core->config->channel_count;
        p[2] = ok ? THR_STATUS_NOT_SUPPORTED : THR_STATUS_BAD_ARGUMENT;
        thr_put16(p + 4, ok ? core->actuator[channel].resonant_dhz : 0u);
        thr_put32(p + 6, 0);
        thr_link_send_reliable(core, THR_MSG_CALIBRATION_RESULT, p, 10);
    }
}

static void slot_list(thr_core *core, uint16_t tag)
{
    uint8_t p[5 + THR_MAX_SLOTS * 10u];
    uint8_t i, n = core->flash.ready ? core->config->slot_count : 0u;
    thr_put16(p, tag);
    p[2] = core->flash.ready ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED;
    p[3] = core->flash.boot_slot;
    p[4] = n;
    for (i = 0; i < n; i++) {
        const thr_slot_state *s = &core->flash.slot[i];
        uint8_t *q = p + 5 + i * 10u;
        q[0] = i;
        q[1] = s->used;
        thr_put32(q + 2, s->used ? s->size : 0u);
        thr_put32(q + 6, s->used ? s->hash : 0u);
    }
    thr_link_send_reliable(core, THR_MSG_SLOT_LIST_REPLY, p, (uint16_t)(5u + n * 10u));
}

static void slot_read(thr_core *core, uint16_t tag, uint8_t slot, uint32_t offset, uint32_t length)
{
    uint8_t p[8 + THR_TX_PAYLOAD];
    uint32_t room = THR_TX_PAYLOAD - 8u;
    thr_status s;
    if (length > room) length = room;
    if (length > core->link.host_max_payload - 8u) length = core->link.host_max_payload - 8u;
    s = thr_slot_read(core, slot, offset, p + 8, &length);
    thr_put16(p, tag);
    p[2] = (uint8_t)s;
    p[3] = slot;
    thr_put32(p + 4, offset);
    thr_link_send_reliable(core, THR_MSG_SLOT_DATA, p, (uint16_t)(8u + (s == THR_STATUS_OK ? length : 0u)));
}

static void curve(thr_core *core, uint16_t tag, const uint8_t *a, uint32_t at)
{
    uint32_t times[THR_RT_CURVE_POINTS];
    int32_t values[THR_RT_CURVE_POINTS];
    uint8_t count = a[8], i, slot = slot_of_wire_parameter(a[3]);
    thr_status s;
    if (count > THR_RT_CURVE_POINTS) {
        reply_result(core, tag, THR_STATUS_BAD_ARGUMENT);
        return;
    }
    for (i = 0; i < count; i++) {
        times[i] = thr_get32(a + 9 + i * 6u);
        values[i] = (int32_t)(int16_t)thr_get16(a + 13 + i * 6u) * 2;   /* Q1.14 -> Q15 */
    }
    s = slot == THR_CTL_NONE ? (a[3] < 11u ? THR_STATUS_OK : THR_STATUS_BAD_ARGUMENT)
                             : thr_player_curve(core, a[2], slot, at, count, times, values);
    reply_result(core, tag, (uint8_t)s);
}

/* Executes one checked host-to-board message; v holds its decoded fields (thr_msg_decode): u16 and
 * u32 fields are read from there, single bytes straight from the payload. */
static void dispatch(thr_core *core, const thr_frame *f, const uint32_t *v)
{
    const uint8_t *a = f->payload;
    uint16_t tag = (uint16_t)v[0];
    thr_status s = THR_STATUS_OK;
    uint8_t handle = 255;
    uint32_t at = 0;
    unsigned i;
    /* the commands with an at_time, and which field it is */
    static const uint8_t timed[][2] = {
        { THR_MSG_PLAYER_START, 3 }, { THR_MSG_PLAYER_STOP, 2 }, { THR_MSG_PLAYER_PAUSE, 2 },
        { THR_MSG_PLAYER_RESUME, 2 }, { THR_MSG_PLAYER_SEEK, 3 }, { THR_MSG_PLAYER_PARAM, 4 },
        { THR_MSG_PLAYER_CURVE, 3 }, { THR_MSG_SLOT_PLAY, 3 }
    };
    for (i = 0; i < sizeof timed / sizeof timed[0]; i++) {
        if (timed[i][0] == f->type) at = at_time(core, v[timed[i][1]]);
    }
    /* the control and realtime messages first: the switch below then spans ids 16-69 only, which
     * keeps its jump table short (ACK and the host's ERROR, never answered, fall to its default) */
    if (f->type == THR_MSG_PING) {
        uint8_t p[14];
        thr_copy(p, a, 6);   /* id, host_time */
        thr_put32(p + 6, core->now);
        thr_put32(p + 10, core->hal->now_us(core->hal->ctx));
        thr_link_send_control(core, THR_MSG_PONG, p, 14);
        return;
    }
    if (f->type == THR_MSG_STREAM_SAMPLES) {
        thr_stream_samples(core, a[0], v[1], (uint16_t)v[2], a[7], a + 8);
        return;
    }
    if (f->type == THR_MSG_RT_PARAM) {
        uint8_t slot = slot_of_wire_parameter(a[1]);
        if (slot != THR_CTL_NONE)
            thr_player_param(core, a[0], slot, (int32_t)v[2] * 2, core->now);
        return;
    }
    if (f->type == THR_MSG_ACTUATOR_CALIBRATE || f->type == THR_MSG_TRACE_READ) {
        trace_or_calibration(core, f, tag, v);
        return;
    }
    switch (f->type) {
    case THR_MSG_UPLOAD_BEGIN:
        s = thr_store_begin(core, v[1], v[2], &handle);
        upload_status(core, tag, (uint8_t)s, s == THR_STATUS_OK ? handle : 255u);
        return;
    case THR_MSG_UPLOAD_CHUNK:
        s = thr_store_chunk(core, a[2], v[2], a + 7, (uint32_t)f->length - 7u);
        upload_status(core, tag, (uint8_t)s, a[2]);
        return;
    case THR_MSG_UPLOAD_COMMIT: s = thr_store_commit(core, a[2], 0); break;
    case THR_MSG_TIMELINE_FREE: {
        uint8_t p;
        for (p = 0; p < THR_MAX_PLAYERS; p++) {
            const thr_player *pl = thr_player_at(core, p);
            if (pl->state != THR_PLAYER_IDLE && pl->handle == a[2]) thr_player_cancel(core, p);
        }
        s = thr_store_free(core, a[2]);
        break;
    }
    case THR_MSG_PLAYER_START:
        s = thr_player_start(core, a[2], a[3], at, v[4]);
        if (s == THR_STATUS_OK) thr_player_at(core, a[2])->host_owned = 1;
        break;
    case THR_MSG_PLAYER_STOP: s = thr_player_stop(core, a[2], at); break;
    case THR_MSG_PLAYER_PAUSE: s = thr_player_pause(core, a[2], at); break;
    case THR_MSG_PLAYER_RESUME: s = thr_player_resume(core, a[2], at); break;
    case THR_MSG_PLAYER_SEEK:
        s = thr_player_seek(core, a[2], v[2], at);
        break;
    case THR_MSG_PLAYER_LOOP: s = thr_player_loop(core, a[2], a[3], v[3]); break;
    case THR_MSG_PLAYER_RATE: s = thr_player_rate(core, a[2], (uint16_t)v[2]); break;
    case THR_MSG_PLAYER_MUTE: s = thr_player_mute(core, a[2], a[3]); break;
    case THR_MSG_PLAYER_CANCEL: s = thr_player_cancel(core, a[2]); break;
    case THR_MSG_PLAYER_PARAM: {
        uint8_t slot = slot_of_wire_parameter(a[3]);
        s = a[3] > 10u ? THR_STATUS_BAD_ARGUMENT : slot == THR_CTL_NONE ? (a[2] < THR_MAX_PLAYERS ? THR_STATUS_OK : THR_STATUS_NO_SUCH_PLAYER)
            : thr_player_param(core, a[2], slot, (int32_t)v[3] * 2, at);
        break;
    }
    case THR_MSG_PLAYER_CURVE: curve(core, tag, a, at); return;
    case THR_MSG_ENGINE_START:
        core->engine_running = 1;
        core->fading = 0;
        break;
    case THR_MSG_ENGINE_STOP: thr_engine_fade_out(core, THR_STOP_REASON_HOST_REQUEST); break;
    case THR_MSG_ACTUATOR_CONFIG: {
        uint8_t c = a[2];
        const thr_channel_config *cfg = c < core->config->channel_count ? &core->config->channels[c] : 0;
        uint16_t rated = (uint16_t)v[4], max = (uint16_t)v[5];
        if (!cfg || a[3] > 1u || max > cfg->max_mv || rated > max || max == 0u) {
            s = THR_STATUS_BAD_ARGUMENT;   /* never above the board's hardware limits */
        } else {
            thr_actuator_state *st = &core->actuator[c];
            st->kind = a[3];
            st->resonant_dhz = (uint16_t)v[3];
            st->rated_mv = rated;
            st->max_mv = max;
        }
        break;
    }
    case THR_MSG_SLOT_STORE: s = thr_slot_store(core, a[2], a[3]); break;
    case THR_MSG_SLOT_LIST: slot_list(core, tag); return;
    case THR_MSG_SLOT_READ: slot_read(core, tag, a[2], v[2], v[3]); return;
    case THR_MSG_SLOT_ERASE: s = thr_slot_erase(core, a[2]); break;
    case THR_MSG_SLOT_PLAY:
        s = thr_slot_play(core, a[2], a[3], at);
        if (s == THR_STATUS_OK) thr_player_at(core, a[3])->host_owned = 1;
        break;
    case THR_MSG_SLOT_BIND: s = thr_slot_bind(core, a[2], a[3], a[4]); break;
    default:
        return;
    }
    reply_result(core, tag, (uint8_t)s);
}

void thr_link_dispatch(thr_core *core, const thr_frame *f, const uint32_t *v)
{
    thr_link *l = &core->link;
    l->late_pending = 0;
    dispatch(core, f, v);
    if (l->late_pending) {
        uint8_t p[7];
        p[0] = f->payload[0];   /* the command's tag */
        p[1] = f->payload[1];
        p[2] = f->type;
        thr_put32(p + 3, l->late_by);
        thr_notify(core, THR_MSG_LATE, p, 7);
    }
}
