/* The commands (PROTOCOL.md §5): each accepted host-to-board message calls the store, the flash
 * slots, the players, the streams or the engine, and is answered with one reply carrying its tag
 * (§5.2); a command whose time had passed runs at once and LATE follows the reply. */
#define THR_MESSAGES_TIMED
#include "thr_flash.h"
#include "thr_link.h"
#include "thr_messages.h"

/* A command's at_time: one already past means now, and a LATE report follows the reply (§5.2). */
static uint32_t at_time(thr_core *core, uint32_t at)
{
    int32_t late = (int32_t)(core->now - at);
    if (at == 0u) return core->now; /* "now": never late (§1) */
    if (late > 0) {
        core->link.late_pending = 1;
        core->link.late_by = (uint32_t)late;
        return core->now;
    }
    return at;
}

static void reply_result(thr_core *core, uint16_t tag, thr_status status)
{
    uint8_t p[THR_RESULT_SIZE];
    thr_put_result_tag(p, tag);
    thr_put_result_status(p, status);
    thr_link_send_reliable(core, THR_MSG_RESULT, p, THR_RESULT_SIZE);
}

/* The rendered control of a wire parameter: the wire numbers the controls as the core's slots up to
 * the audio volume, then the audio pan and pitch (no lane: THR_CTL_NONE), then the audio attack,
 * decay and release and the channel pan (thr_core.h). THR_CTL_NONE for a number beyond the enum too. */
THR_INLINE uint8_t slot_of_wire_parameter(uint8_t parameter)
{
    if (parameter <= THR_PARAMETER_AUDIO_VOLUME_CONTROL) return parameter;
    if (parameter < THR_PARAMETER_AUDIO_ATTACK_TIME_CONTROL || parameter >= THR_PARAMETER_COUNT) return THR_CTL_NONE;
    return (uint8_t)(parameter - (THR_PARAMETER_AUDIO_ATTACK_TIME_CONTROL - THR_CTL_AUDIO_ATTACK));
}

static void upload_status(thr_core *core, uint16_t tag, thr_status status, uint8_t handle)
{
    uint8_t p[THR_UPLOAD_STATUS_SIZE];
    thr_put_upload_status_tag(p, tag);
    thr_put_upload_status_status(p, status);
    thr_put_upload_status_handle(p, handle);
    thr_put_upload_status_next_offset(p, handle < THR_MAX_TIMELINES ? core->timeline[handle].received : 0u);
    thr_link_send_reliable(core, THR_MSG_UPLOAD_STATUS, p, THR_UPLOAD_STATUS_SIZE);
}

/* TRACE_READ: with THR_TRACE_READ and the HAL's trace_read, the rendered intensity the board kept
 * (the simulator's trace memory); else not_supported and no samples. */
static void trace_read(thr_core *core, const uint8_t *a, const uint32_t *v)
{
#if THR_TRACE_READ
    uint8_t p[THR_TRACE_DATA_SAMPLES_AT + THR_TX_PAYLOAD];
    int16_t samples[(THR_TX_PAYLOAD - THR_TRACE_DATA_SAMPLES_AT) / 2u];
    uint32_t room = core->link.host_max_payload - THR_TRACE_DATA_SAMPLES_AT, wanted = thr_get_trace_read_count(v);
    uint16_t n = 0, i;
#else
    uint8_t p[THR_TRACE_DATA_SAMPLES_AT];
#endif
    uint32_t from = thr_get_trace_read_from_time(v);
    uint8_t channel = thr_get_trace_read_channel(a);
    thr_status s = THR_STATUS_NOT_SUPPORTED;
#if THR_TRACE_READ
    if (room > sizeof samples) room = sizeof samples;
    if (wanted > room / 2u) wanted = room / 2u;
    if (channel >= core->config->channel_count) {
        s = THR_STATUS_BAD_ARGUMENT;
    } else if (core->hal->trace_read) {
        s = THR_STATUS_OK;
        n = core->hal->trace_read(core->hal->ctx, channel, &from, samples, (uint16_t)wanted);
        for (i = 0; i < n; i++) thr_put16(p + THR_TRACE_DATA_SAMPLES_AT + 2u * i, (uint16_t)samples[i]);
    }
#endif
    thr_put_trace_data_tag(p, thr_get_trace_read_tag(v));
    thr_put_trace_data_status(p, s);
    thr_put_trace_data_channel(p, channel);
    thr_put_trace_data_from_time(p, from);
    thr_put_trace_data_tick(p, core->tick_us > 0xFFFFu ? 0xFFFFu : (uint16_t)core->tick_us);
#if THR_TRACE_READ
    thr_link_send_reliable(core, THR_MSG_TRACE_DATA, p, (uint16_t)(THR_TRACE_DATA_SAMPLES_AT + 2u * n));
#else
    thr_link_send_reliable(core, THR_MSG_TRACE_DATA, p, THR_TRACE_DATA_SAMPLES_AT);
#endif
}

THR_INLINE void calibration_result(thr_core *core, uint16_t tag, uint8_t channel, const thr_calibration *r)
{
    uint8_t p[THR_CALIBRATION_RESULT_SIZE];
    thr_put_calibration_result_tag(p, tag);
    thr_put_calibration_result_status(p, (thr_status)r->status);
    thr_put_calibration_result_channel(p, channel);
    thr_put_calibration_result_resonant_dhz(p, r->resonant_dhz);
    thr_put_calibration_result_impedance_mohm(p, r->impedance_mohm);
    thr_link_send_reliable(core, THR_MSG_CALIBRATION_RESULT, p, THR_CALIBRATION_RESULT_SIZE);
}

/* ACTUATOR_CALIBRATE: the channel driver's calibration when the board has one (thr_hal.h), answered
 * when it is done (thr_link_calibrate_poll); else not supported, with the configured resonance. */
static void calibrate(thr_core *core, const uint8_t *a, const uint32_t *v)
{
    thr_calibration r;
    uint8_t channel = thr_get_actuator_calibrate_channel(a);
    uint16_t tag = thr_get_actuator_calibrate_tag(v);
    r.status = THR_STATUS_BAD_ARGUMENT;
    r.resonant_dhz = 0;
    r.impedance_mohm = 0;
    if (channel < core->config->channel_count) {
        r.status = THR_STATUS_NOT_SUPPORTED;
        r.resonant_dhz = core->actuator[channel].resonant_dhz;
#if THR_ACTUATOR_CALIBRATION
        if (core->hal->actuator_calibrate_start && core->hal->actuator_calibrate_poll) {
            const thr_hal *hal = core->hal;
            r.status =
                (uint8_t)(core->calibrating ? THR_STATUS_BUSY : hal->actuator_calibrate_start(hal->ctx, channel));
            if (r.status == THR_STATUS_OK) {
                core->calibrating = (uint8_t)(channel + 1u);
                core->calibrate_tag = tag;
                core->calibrate_at = core->now;
                return;
            }
        }
#endif
    }
    calibration_result(core, tag, channel, &r);
}

#if THR_ACTUATOR_CALIBRATION
void thr_link_calibrate_poll(thr_core *core)
{
    const thr_hal *hal = core->hal;
    uint8_t channel = (uint8_t)(core->calibrating - 1u);
    thr_calibration r;
    r.status = THR_STATUS_INCOMPLETE; /* unless the driver finished in time */
    r.resonant_dhz = 0;
    r.impedance_mohm = 0;
    if (!hal->actuator_calibrate_poll(hal->ctx, channel, &r) &&
        core->now - core->calibrate_at < THR_CALIBRATION_TIMEOUT_MS * 1000u)
        return;
    if (r.status == THR_STATUS_OK && r.resonant_dhz) core->actuator[channel].resonant_dhz = r.resonant_dhz;
    core->calibrating = 0;
    calibration_result(core, core->calibrate_tag, channel, &r);
}
#endif

/* CHANNEL_READ: the channel's name from the board's configuration (empty when it has none). */
static void channel_read(thr_core *core, const uint8_t *a, const uint32_t *v)
{
    uint8_t p[THR_CHANNEL_REPLY_MAX_SIZE], channel = thr_get_channel_read_channel(a);
    int known = channel < core->config->channel_count;
    uint8_t length = thr_link_put_text(thr_put_channel_reply_name_text(p),
                                       known ? core->config->channels[channel].name : 0, THR_CHANNEL_REPLY_NAME_MAX);
    thr_put_channel_reply_tag(p, thr_get_channel_read_tag(v));
    thr_put_channel_reply_status(p, known ? THR_STATUS_OK : THR_STATUS_BAD_ARGUMENT);
    thr_put_channel_reply_channel(p, channel);
    thr_link_send_reliable(core, THR_MSG_CHANNEL_REPLY, p,
                           (uint16_t)(thr_put_channel_reply_name_length(p, length) - p));
}

static void slot_list(thr_core *core, uint16_t tag)
{
    uint8_t p[THR_SLOT_LIST_REPLY_SLOTS_ITEMS_AT + THR_MAX_SLOTS * THR_SLOT_LIST_REPLY_SLOTS_ITEM_SIZE];
    uint8_t i, n = core->flash.ready ? core->config->slot_count : 0u;
    thr_put_slot_list_reply_tag(p, tag);
    thr_put_slot_list_reply_status(p, core->flash.ready ? THR_STATUS_OK : THR_STATUS_NOT_SUPPORTED);
    thr_put_slot_list_reply_boot_slot(p, core->flash.boot_slot);
    for (i = 0; i < n; i++) {
        const thr_slot_state *s = &core->flash.slot[i];
        uint8_t *item = thr_put_slot_list_reply_slots_item(p, i);
        thr_put_slot_list_reply_slots_slot(item, i);
        thr_put_slot_list_reply_slots_used(item, s->used);
        thr_put_slot_list_reply_slots_size(item, s->used ? s->size : 0u);
        thr_put_slot_list_reply_slots_hash(item, s->used ? s->hash : 0u);
    }
    thr_link_send_reliable(core, THR_MSG_SLOT_LIST_REPLY, p, (uint16_t)(thr_put_slot_list_reply_slots_count(p, n) - p));
}

static void slot_read(thr_core *core, const uint8_t *a, const uint32_t *v)
{
    uint8_t p[THR_SLOT_DATA_DATA_AT + THR_TX_PAYLOAD];
    uint8_t slot = thr_get_slot_read_slot(a);
    uint32_t offset = thr_get_slot_read_offset(v), length = thr_get_slot_read_length(v);
    uint32_t room = THR_TX_PAYLOAD - THR_SLOT_DATA_DATA_AT;
    thr_status s;
    if (length > room) length = room;
    if (length > core->link.host_max_payload - THR_SLOT_DATA_DATA_AT)
        length = core->link.host_max_payload - THR_SLOT_DATA_DATA_AT;
    s = thr_slot_read(core, slot, offset, thr_put_slot_data_data(p), &length);
    thr_put_slot_data_tag(p, thr_get_slot_read_tag(v));
    thr_put_slot_data_status(p, s);
    thr_put_slot_data_slot(p, slot);
    thr_put_slot_data_offset(p, offset);
    thr_link_send_reliable(core, THR_MSG_SLOT_DATA, p,
                           (uint16_t)(THR_SLOT_DATA_DATA_AT + (s == THR_STATUS_OK ? length : 0u)));
}

THR_INLINE void curve(thr_core *core, const uint8_t *a, const uint32_t *v, uint32_t at)
{
    uint32_t times[THR_RT_CURVE_POINTS];
    int32_t values[THR_RT_CURVE_POINTS];
    uint8_t count = thr_get_player_curve_points_count(a), i, parameter = thr_get_player_curve_parameter(a);
    uint8_t slot = slot_of_wire_parameter(parameter);
    thr_status s;
    if (count > THR_RT_CURVE_POINTS) {
        reply_result(core, thr_get_player_curve_tag(v), THR_STATUS_BAD_ARGUMENT);
        return;
    }
    for (i = 0; i < count; i++) {
        const uint8_t *point = thr_get_player_curve_points_item(a, i);
        times[i] = thr_get_player_curve_points_time(point);
        values[i] = thr_get_player_curve_points_value(point) * 2; /* Q1.14 -> Q15 */
    }
    s = slot == THR_CTL_NONE ? (parameter < THR_PARAMETER_COUNT ? THR_STATUS_OK : THR_STATUS_BAD_ARGUMENT)
                             : thr_player_curve(core, thr_get_player_curve_player(a), slot, at, count, times, values);
    reply_result(core, thr_get_player_curve_tag(v), s);
}

/* A command's place in the dispatcher's jump table: its id less 4 per block of 16, so that the
 * blocks of ids (16-19, 32-43, 48-53, 64-69) lie 12 apart rather than 16, with every id of the
 * schema that reaches the switch (these and 0-6) still on a place of its own. */
#define CMD(type) ((unsigned)(type)-4u * ((unsigned)(type) >> 4))

/* Executes one checked host-to-board message: its fields read through the generated accessors
 * (thr_messages.h), bytes from the payload `a`, wider fields from v, the values thr_msg_decode
 * decoded. */
static void dispatch(thr_core *core, const thr_frame *f, const uint32_t *v)
{
    const uint8_t *a = f->payload;
    uint16_t tag = thr_get_tag(v);
    thr_status s = THR_STATUS_OK;
    uint8_t handle = 255;
    uint32_t at = 0;
    unsigned i;
    for (i = 0; i < sizeof thr_msg_timed / sizeof thr_msg_timed[0]; i++) {
        if (thr_msg_timed[i][0] == f->type) at = at_time(core, v[thr_msg_timed[i][1]]);
    }
    /* the control and realtime messages first: the switch below then spans the commands only, ids
     * 16-69 taken as CMD(id), which keeps its jump table short (ACK and the host's ERROR, never
     * answered, fall to its default) */
    if (f->type == THR_MSG_PING) {
        uint8_t p[THR_PONG_SIZE];
        thr_put_pong_id(p, thr_get_ping_id(v));
        thr_put_pong_host_time(p, thr_get_ping_host_time(v));
        thr_put_pong_rx_time(p, core->now);
        thr_put_pong_tx_time(p, core->hal->now_us(core->hal->ctx));
        thr_link_send_control(core, THR_MSG_PONG, p, THR_PONG_SIZE);
        return;
    }
    if (f->type == THR_MSG_STREAM_SAMPLES) {
        thr_stream_samples(core, thr_get_stream_samples_channel(a), thr_get_stream_samples_at_time(v),
                           thr_get_stream_samples_interval(v), thr_get_stream_samples_samples_count(a),
                           thr_get_stream_samples_samples_item(a, 0));
        return;
    }
    if (f->type == THR_MSG_RT_PARAM) {
        uint8_t slot = slot_of_wire_parameter(thr_get_rt_param_parameter(a));
        if (slot != THR_CTL_NONE)
            thr_player_param(core, thr_get_rt_param_player(a), slot, thr_get_rt_param_value(v) * 2, core->now);
        return;
    }
    if (f->type == THR_MSG_TRACE_READ) {
        trace_read(core, a, v);
        return;
    }
    switch (CMD(f->type)) {
    case CMD(THR_MSG_UPLOAD_BEGIN):
        s = thr_store_begin(core, thr_get_upload_begin_size(v), thr_get_upload_begin_hash(v), &handle);
        upload_status(core, tag, s, s == THR_STATUS_OK ? handle : 255u);
        return;
    case CMD(THR_MSG_UPLOAD_CHUNK):
        handle = thr_get_upload_chunk_handle(a);
        s = thr_store_chunk(core, handle, thr_get_upload_chunk_offset(v), thr_get_upload_chunk_data(a),
                            (uint32_t)f->length - THR_UPLOAD_CHUNK_DATA_AT);
        upload_status(core, tag, s, handle);
        return;
    case CMD(THR_MSG_UPLOAD_COMMIT): s = thr_store_commit(core, thr_get_upload_commit_handle(a), 0); break;
    case CMD(THR_MSG_TIMELINE_FREE): {
        uint8_t p;
        handle = thr_get_timeline_free_handle(a);
        for (p = 0; p < THR_MAX_PLAYERS; p++) {
            const thr_player *pl = thr_player_at(core, p);
            if (pl->state != THR_PLAYER_IDLE && pl->handle == handle) thr_player_cancel(core, p);
        }
        s = thr_store_free(core, handle);
        break;
    }
    case CMD(THR_MSG_PLAYER_START):
        s = thr_player_start(core, thr_get_player_start_player(a), thr_get_player_start_handle(a), at,
                             thr_get_player_start_position(v));
        if (s == THR_STATUS_OK) thr_player_at(core, thr_get_player_start_player(a))->host_owned = 1;
        break;
    case CMD(THR_MSG_PLAYER_STOP): s = thr_player_stop(core, thr_get_player_stop_player(a), at); break;
    case CMD(THR_MSG_PLAYER_PAUSE): s = thr_player_pause(core, thr_get_player_pause_player(a), at); break;
    case CMD(THR_MSG_PLAYER_RESUME): s = thr_player_resume(core, thr_get_player_resume_player(a), at); break;
    case CMD(THR_MSG_PLAYER_SEEK):
        s = thr_player_seek(core, thr_get_player_seek_player(a), thr_get_player_seek_position(v), at);
        break;
    case CMD(THR_MSG_PLAYER_LOOP):
        s = thr_player_loop(core, thr_get_player_loop_player(a), thr_get_player_loop_enabled(a),
                            thr_get_player_loop_loop_end(v));
        break;
    case CMD(THR_MSG_PLAYER_RATE):
        s = thr_player_rate(core, thr_get_player_rate_player(a), thr_get_player_rate_rate_q8(v));
        break;
    case CMD(THR_MSG_PLAYER_MUTE):
        s = thr_player_mute(core, thr_get_player_mute_player(a), thr_get_player_mute_muted(a));
        break;
    case CMD(THR_MSG_PLAYER_CANCEL): s = thr_player_cancel(core, thr_get_player_cancel_player(a)); break;
    case CMD(THR_MSG_PLAYER_PARAM): {
        uint8_t player = thr_get_player_param_player(a), parameter = thr_get_player_param_parameter(a);
        uint8_t slot = slot_of_wire_parameter(parameter);
        s = parameter >= THR_PARAMETER_COUNT ? THR_STATUS_BAD_ARGUMENT
            : slot == THR_CTL_NONE           ? (player < THR_MAX_PLAYERS ? THR_STATUS_OK : THR_STATUS_NO_SUCH_PLAYER)
                                   : thr_player_param(core, player, slot, thr_get_player_param_value(v) * 2, at);
        break;
    }
    case CMD(THR_MSG_PLAYER_CURVE): curve(core, a, v, at); return;
    case CMD(THR_MSG_PLAYER_CHANNELS):
        /* the list's items are one byte each: the channel indices as they are */
        s = thr_player_channels(core, thr_get_player_channels_player(a), at, thr_get_player_channels_channels_count(a),
                                thr_get_player_channels_channels_item(a, 0));
        break;
    case CMD(THR_MSG_ACTUATOR_CALIBRATE): calibrate(core, a, v); return;
    case CMD(THR_MSG_CLOCK_TRIM): s = thr_clock_trim(core, thr_get_clock_trim_rate_ppb(v)); break;
    case CMD(THR_MSG_CHANNEL_READ): channel_read(core, a, v); return;
    case CMD(THR_MSG_ENGINE_START):
        core->engine_running = 1;
        core->fading = 0;
        break;
    case CMD(THR_MSG_ENGINE_STOP): thr_engine_fade_out(core, THR_STOP_REASON_HOST_REQUEST); break;
    case CMD(THR_MSG_ACTUATOR_CONFIG): {
        uint8_t c = thr_get_actuator_config_channel(a), kind = thr_get_actuator_config_kind(a);
        const thr_channel_config *cfg = c < core->config->channel_count ? &core->config->channels[c] : 0;
        uint16_t rated = thr_get_actuator_config_rated_mv(v), max = thr_get_actuator_config_max_mv(v);
        if (!cfg || kind >= THR_ACTUATOR_KIND_COUNT || max > cfg->max_mv || rated > max || max == 0u) {
            s = THR_STATUS_BAD_ARGUMENT; /* never above the board's hardware limits */
        } else {
            thr_actuator_state *st = &core->actuator[c];
            st->kind = kind;
            st->resonant_dhz = thr_get_actuator_config_resonant_dhz(v);
            st->rated_mv = rated;
            st->max_mv = max;
        }
        break;
    }
    case CMD(THR_MSG_SLOT_STORE):
        s = thr_slot_store(core, thr_get_slot_store_handle(a), thr_get_slot_store_slot(a));
        break;
    case CMD(THR_MSG_SLOT_LIST): slot_list(core, tag); return;
    case CMD(THR_MSG_SLOT_READ): slot_read(core, a, v); return;
    case CMD(THR_MSG_SLOT_ERASE): s = thr_slot_erase(core, thr_get_slot_erase_slot(a)); break;
    case CMD(THR_MSG_SLOT_PLAY):
        s = thr_slot_play(core, thr_get_slot_play_slot(a), thr_get_slot_play_player(a), at);
        if (s == THR_STATUS_OK) thr_player_at(core, thr_get_slot_play_player(a))->host_owned = 1;
        break;
    case CMD(THR_MSG_SLOT_BIND):
        s = thr_slot_bind(core, thr_get_slot_bind_slot(a), thr_get_slot_bind_trigger(a), thr_get_slot_bind_input(a));
        break;
    default: return;
    }
    reply_result(core, tag, s);
}

void thr_link_dispatch(thr_core *core, const thr_frame *f, const uint32_t *v)
{
    thr_link *l = &core->link;
    THR_KEEP(l);
    l->late_pending = 0;
    dispatch(core, f, v);
    if (l->late_pending) {
        uint8_t p[THR_LATE_SIZE];
        thr_put_late_tag(p, thr_get_tag(v)); /* the command's */
        thr_put_late_ref_type(p, f->type);
        thr_put_late_late_by(p, l->late_by);
        thr_notify(core, THR_MSG_LATE, p, THR_LATE_SIZE);
    }
}
