/* Timeline validation and reading (Protocol/TIMELINE.md). Every read is bounds-checked against
 * the section limit; every count is checked against the bytes that remain before it is used;
 * every sum of instants is checked against THR_MAX_TICKS (sums of two u32 <= 2^31-1 fit a u32). */
#include "thr_timeline.h"
#include "thr_internal.h"

#include <stddef.h>

#define TL_MAX_SHAPES    16777215u
#define TL_MAX_POINTS    65535u
#define TL_KEYFRAME_SIZE 16u
#define TL_ACTIVE_SIZE   8u

const char *thr_tl_error_name(thr_tl_error error)
{
    static const char *const names[] = {
        "ok",         "truncated",          "bad-magic",          "bad-version",       "bad-flags",     "bad-checksum",
        "bad-varint", "count-out-of-range", "value-out-of-range", "time-out-of-range", "bad-shape",     "bad-waveform",
        "bad-record", "index-out-of-range", "duration-mismatch",  "bad-keyframe",      "trailing-bytes"
    };
    return (unsigned)error < sizeof names / sizeof names[0] ? names[error] : "unknown";
}

/* A cursor over untrusted bytes; the first failure is latched in `result`. */
typedef struct reader {
    const uint8_t *b;
    uint32_t pos;
    uint32_t limit;
    thr_tl_result result;
} reader;

THR_NOINLINE static int fail(reader *r, thr_tl_error error, uint32_t offset)
{
    if (r->result.error == THR_TL_OK) {
        r->result.error = error;
        r->result.offset = offset;
    }
    return 0;
}

static void reader_init(reader *r, const uint8_t *bytes, uint32_t pos, uint32_t limit)
{
    r->b = bytes;
    r->pos = pos;
    r->limit = limit;
    r->result.error = THR_TL_OK;
    r->result.offset = 0;
}

static uint32_t remaining(const reader *r)
{
    return r->limit - r->pos;
}

static int rd_byte(reader *r, uint8_t *out)
{
    if (r->pos >= r->limit) return fail(r, THR_TL_TRUNCATED, r->pos);
    *out = r->b[r->pos++];
    return 1;
}

/* Unsigned LEB128: at most five bytes, value within 32 bits, shortest form. */
static int rd_varint(reader *r, uint32_t *out)
{
    uint32_t start = r->pos, value = 0;
    unsigned index;
    for (index = 0; index < 5u; index++) {
        uint8_t byte;
        if (r->pos >= r->limit) return fail(r, THR_TL_TRUNCATED, r->pos);
        byte = r->b[r->pos++];
        if (index == 4u && byte > 0x0Fu) return fail(r, THR_TL_BAD_VARINT, start);
        value |= (uint32_t)(byte & 0x7Fu) << (7u * index);
        if ((byte & 0x80u) == 0u) {
            if (index > 0u && byte == 0u) return fail(r, THR_TL_BAD_VARINT, start);
            *out = value;
            return 1;
        }
    }
    return fail(r, THR_TL_BAD_VARINT, start);
}

/* base + delta, both <= THR_MAX_TICKS or delta arbitrary u32: checked against MAX_TICKS. */
THR_INLINE int add_ticks(reader *r, uint32_t base, uint32_t delta, uint32_t at, uint32_t *out)
{
    if (delta > THR_MAX_TICKS || base > THR_MAX_TICKS - delta) return fail(r, THR_TL_TIME_OUT_OF_RANGE, at);
    *out = base + delta;
    return 1;
}

/* A varint of ticks (into *value) that is added to base (into *sum), checked as add_ticks does
 * and reported at the varint's start. */
static int rd_ticks(reader *r, uint32_t base, uint32_t *value, uint32_t *sum)
{
    uint32_t at = r->pos;
    return rd_varint(r, value) && add_ticks(r, base, *value, at, sum);
}

static int is_unsigned_control(unsigned code)
{
    return code == 0u || code == 5u;
}

static int read_shapes(reader *r, thr_tl_info *info)
{
    uint32_t n;
    for (n = 0; n < info->shape_count; n++) {
        uint32_t at = r->pos;
        const uint8_t *s = r->b + at;
        unsigned type;
        int continuous;
        int8_t pitch = 0, pan = 0;
        THR_KEEP(s);
        type = s[0] & 3u;
        continuous = type == THR_EV_CONTINUOUS || type == THR_EV_AUDIO_CONTINUOUS;
        if (s[0] & 0xC0u) return fail(r, THR_TL_BAD_SHAPE, at);
        if (info->stride >= 8u) {
            pitch = (int8_t)s[6];
            pan = (int8_t)s[7];
            if (s[6] == 0x80u || s[7] == 0x80u) return fail(r, THR_TL_VALUE_OUT_OF_RANGE, at + 6u);
        }
        if (continuous && !(s[0] & 0x08u)) return fail(r, THR_TL_BAD_SHAPE, at);
        if (type != THR_EV_AUDIO_CUSTOM && (s[0] & 0x30u)) return fail(r, THR_TL_BAD_SHAPE, at);
        if (type <= THR_EV_CONTINUOUS && (pitch != 0 || pan != 0)) return fail(r, THR_TL_BAD_SHAPE, at + 6u);
        r->pos += info->stride;
    }
    return 1;
}

static int read_waveforms(reader *r, const thr_tl_info *info)
{
    uint32_t n;
    for (n = 0; n < info->waveform_count; n++) {
        uint32_t at = r->pos, value;
        uint8_t kind;
        if (!rd_byte(r, &kind)) return 0;
        if (kind == 0u) continue;
        if (kind == 1u) {
            uint32_t length_at = r->pos;
            if (!rd_varint(r, &value)) return 0;
            if (value < 1u || value > 255u) return fail(r, THR_TL_BAD_WAVEFORM, length_at);
            if (value > remaining(r)) return fail(r, THR_TL_TRUNCATED, r->pos);
            if (!thr_utf8_valid(r->b + r->pos, value)) return fail(r, THR_TL_BAD_WAVEFORM, length_at + 1u);
            r->pos += value;
        } else if (kind == 2u) {
            if (!rd_varint(r, &value)) return 0;
        } else {
            return fail(r, THR_TL_BAD_WAVEFORM, at);
        }
    }
    return 1;
}

#if THR_AUDIO_SAMPLES
uint32_t thr_tl_waveform_resource(const uint8_t *bytes, const thr_tl_info *info, uint32_t index)
{
    reader r;
    uint32_t n, value = 0;
    uint8_t kind = 0;
    if (!info->waveforms || index >= info->waveform_count) return 0;
    /* the table was validated at commit: walk it to entry `index` */
    reader_init(&r, bytes, info->waveforms, info->records);
    for (n = 0; n <= index; n++) {
        if (!rd_byte(&r, &kind)) return 0;
        value = 0;
        if (kind == 1u) {
            if (!rd_varint(&r, &value)) return 0;
            r.pos += value;
        } else if (kind == 2u) {
            if (!rd_varint(&r, &value)) return 0;
        }
    }
    return kind == 2u ? value : 0u;
}
#endif

/* Reads one record at r->pos. `time` is the running start (updated); `latest` the latest end. */
static int read_record(reader *r, const thr_tl_info *info, uint32_t *time, uint32_t *latest, thr_record *out)
{
    uint32_t at = r->pos, delta;
    uint8_t tag;
    if (!rd_byte(r, &tag)) return 0;
    if (!rd_ticks(r, *time, &delta, time)) return 0;
    out->offset = at;
    out->start = *time;
    out->kind = (uint8_t)(tag & 3u);
    switch (tag & 3u) {
    case THR_REC_EVENT: {
        uint32_t shape = (uint32_t)tag >> 2, index_at = r->pos, end;
        const uint8_t *s;
        if (shape == 63u) {
            uint32_t extension;
            if (!rd_varint(r, &extension)) return 0;
            shape += extension; /* <= 63 + 2^32-1 would wrap: compare first */
            if (extension > 0xFFFFFFFFu - 63u || shape >= info->shape_count)
                return fail(r, THR_TL_INDEX_OUT_OF_RANGE, index_at);
        } else if (shape >= info->shape_count) {
            return fail(r, THR_TL_INDEX_OUT_OF_RANGE, at);
        }
        s = r->b + info->shapes + shape * info->stride;
        out->shape_flags = s[0];
        out->event_type = (uint8_t)(s[0] & 3u);
        out->level = s[1];
        out->tone = s[2];
        out->attack = info->stride >= 6u ? s[3] : 0u;
        out->decay = info->stride >= 6u ? s[4] : 0u;
        out->release = info->stride >= 6u ? s[5] : 0u;
        out->duration = 0;
        out->waveform = 0;
        if (s[0] & 0x08u) {
            if (!rd_ticks(r, *time, &out->duration, &end)) return 0;
        } else {
            end = *time;
        }
        if (end > *latest) *latest = end;
        if (out->event_type == THR_EV_AUDIO_CUSTOM) {
            uint32_t waveform_at = r->pos;
            if (!rd_varint(r, &out->waveform)) return 0;
            if (out->waveform >= info->waveform_count) return fail(r, THR_TL_INDEX_OUT_OF_RANGE, waveform_at);
        }
        break;
    }
    case THR_REC_PARAMETER: {
        unsigned code = ((unsigned)tag >> 2) & 0x0Fu;
        uint32_t value_at;
        if ((tag & 0xC0u) || code >= 12u) return fail(r, THR_TL_BAD_RECORD, at);
        value_at = r->pos;
        if (!rd_byte(r, &out->value)) return 0;
        if (!is_unsigned_control(code) && out->value == 0x80u) return fail(r, THR_TL_VALUE_OUT_OF_RANGE, value_at);
        out->control = (uint8_t)code;
        if (*time > *latest) *latest = *time;
        break;
    }
    case THR_REC_CURVE: {
        unsigned code = ((unsigned)tag >> 2) & 0x0Fu;
        uint32_t count = (uint32_t)tag >> 6, point, point_time = 0, end;
        if (code >= 12u) return fail(r, THR_TL_BAD_RECORD, at);
        if (count == 0u) {
            uint32_t count_at = r->pos;
            if (!rd_varint(r, &count)) return 0;
            if (count >= 1u && count <= 3u) return fail(r, THR_TL_BAD_RECORD, count_at);
            if (count > TL_MAX_POINTS) return fail(r, THR_TL_COUNT_OUT_OF_RANGE, count_at);
            if (count * 2u > remaining(r)) return fail(r, THR_TL_TRUNCATED, r->limit);
        }
        out->control = (uint8_t)code;
        out->points = r->pos;
        out->point_count = count;
        for (point = 0; point < count; point++) {
            uint32_t pd, pd_at = r->pos, value_at;
            uint8_t value;
            if (!rd_ticks(r, point_time, &pd, &point_time)) return 0;
            if (!add_ticks(r, *time, point_time, pd_at, &end)) return 0;
            value_at = r->pos;
            if (!rd_byte(r, &value)) return 0;
            if (!is_unsigned_control(code) && value == 0x80u) return fail(r, THR_TL_VALUE_OUT_OF_RANGE, value_at);
        }
        end = *time + point_time; /* checked above when count > 0; else point_time = 0 */
        if (end > *latest) *latest = end;
        break;
    }
    default: return fail(r, THR_TL_BAD_RECORD, at);
    }
    out->next = r->pos;
    return 1;
}

/* Finds the record starting at timeline offset `target`, scanning from the hint (a record
 * boundary at or before target, with its predecessor's start) or from the first record.
 * On success gives the record's start and its predecessor's start. */
typedef struct scan_hint {
    uint32_t offset, base;
} scan_hint;

THR_INLINE int find_record(const uint8_t *b, const thr_tl_info *info, scan_hint *hint, uint32_t target, uint32_t *start,
                           uint32_t *previous)
{
    thr_record rec;
    uint32_t off = hint->offset, base = hint->base;
    if (target < off) {
        off = info->records;
        base = 0;
    }
    while (off < info->records_end && off <= target) {
        if (!thr_tl_read_record(b, info, off, base, &rec)) return 0;
        if (off == target) {
            *start = rec.start;
            *previous = base;
            hint->offset = off;
            hint->base = base;
            return 1;
        }
        base = rec.start;
        off = rec.next;
    }
    return 0;
}

THR_INLINE int read_index(reader *r, thr_tl_info *info)
{
    const uint8_t *b = r->b;
    scan_hint hint;
    uint32_t k, a, owner = 0, prev_time = 0, prev_first = 0;
    THR_KEEP(b);
    hint.offset = info->records;
    hint.base = 0;
    for (k = 0; k < info->keyframe_count; k++) {
        uint32_t at = info->keyframes + k * TL_KEYFRAME_SIZE, start, previous, off;
        uint32_t time = thr_get32(b + at), roff = thr_get32(b + at + 4u), base = thr_get32(b + at + 8u),
                 first = thr_get32(b + at + 12u);
        if (roff > info->records_end - info->records) return fail(r, THR_TL_BAD_KEYFRAME, at + 4u);
        off = info->records + roff;
        if (!find_record(b, info, &hint, off, &start, &previous)) return fail(r, THR_TL_BAD_KEYFRAME, at + 4u);
        if (start != time || (off != info->records && previous >= time)) return fail(r, THR_TL_BAD_KEYFRAME, at);
        if (base != previous) return fail(r, THR_TL_BAD_KEYFRAME, at + 8u);
        if (k > 0u && prev_time >= time) return fail(r, THR_TL_BAD_KEYFRAME, at);
        if ((k == 0u ? first != 0u : first < prev_first) || first > info->active_count)
            return fail(r, THR_TL_BAD_KEYFRAME, at + 12u);
        prev_time = time;
        prev_first = first;
    }
    hint.offset = info->records;
    hint.base = 0;
    for (a = 0; a < info->active_count; a++) {
        uint32_t at = info->active + a * TL_ACTIVE_SIZE, start, previous, kf_off;
        uint32_t roff = thr_get32(b + at), time = thr_get32(b + at + 4u);
        while (owner + 1u < info->keyframe_count &&
               thr_get32(b + info->keyframes + (owner + 1u) * TL_KEYFRAME_SIZE + 12u) <= a)
            owner++;
        if (info->keyframe_count == 0u) return fail(r, THR_TL_BAD_KEYFRAME, at);
        kf_off = thr_get32(b + info->keyframes + owner * TL_KEYFRAME_SIZE + 4u);
        if (roff >= kf_off || !find_record(b, info, &hint, info->records + roff, &start, &previous))
            return fail(r, THR_TL_INDEX_OUT_OF_RANGE, at);
        if (start != time) return fail(r, THR_TL_BAD_KEYFRAME, at + 4u);
    }
    return 1;
}

/* The checks of thr_tl_validate; 0 at the first failure (latched in r->result). */
THR_INLINE int validate(reader *r, const uint8_t *bytes, uint32_t length, thr_tl_info *info)
{
    uint8_t magic0, magic1, version, flags;
    uint32_t checksum, count, time = 0, latest = 0, event_latest = 0;
    uint32_t records_length = 0, duration_at, shape_count_at;
    thr_record rec;

    if (!rd_byte(r, &magic0) || !rd_byte(r, &magic1)) return 0;
    if (magic0 != 0x54u || magic1 != 0x4Cu) return fail(r, THR_TL_BAD_MAGIC, 0);
    if (!rd_byte(r, &version)) return 0;
    if (version != 1u) return fail(r, THR_TL_BAD_VERSION, 2);
    if (!rd_byte(r, &flags)) return 0;
    if ((flags & 0xF0u) || ((flags >> 2) & 3u) == 3u) return fail(r, THR_TL_BAD_FLAGS, 3);
    if (length < 8u) return fail(r, THR_TL_TRUNCATED, length);
    info->flags = flags;
    info->stride = (uint8_t)(((flags >> 2) & 3u) == 0u ? 3u : ((flags >> 2) & 3u) == 1u ? 6u : 8u);

    checksum = thr_get32(bytes + 4);
    if (thr_crc32_update(thr_crc32_update(0, bytes, 4), bytes + 8, length - 8u) != checksum) {
        return fail(r, THR_TL_BAD_CHECKSUM, 4);
    }
    info->checksum = checksum;
    r->pos = 8;

    duration_at = r->pos;
    if (!rd_varint(r, &info->duration)) return 0;
    if (info->duration > THR_MAX_TICKS) return fail(r, THR_TL_TIME_OUT_OF_RANGE, duration_at);
    shape_count_at = r->pos;
    if (!rd_varint(r, &info->shape_count)) return 0;
    if (info->shape_count > TL_MAX_SHAPES) return fail(r, THR_TL_COUNT_OUT_OF_RANGE, shape_count_at);
    info->waveform_count = 0;
    if (flags & 0x02u) {
        uint32_t at = r->pos;
        if (!rd_varint(r, &info->waveform_count)) return 0;
        if (info->waveform_count < 1u || info->waveform_count > 255u) {
            return fail(r, THR_TL_COUNT_OUT_OF_RANGE, at);
        }
    }
    info->keyframe_count = 0;
    info->active_count = 0;
    if (flags & 0x01u) {
        if (!rd_varint(r, &records_length) || !rd_varint(r, &info->keyframe_count) ||
            !rd_varint(r, &info->active_count))
            return 0;
    }
    /* shape_count <= 2^24 - 1 and stride <= 8: the product fits in 32 bits. */
    if (info->shape_count * info->stride > remaining(r)) return fail(r, THR_TL_TRUNCATED, length);
    info->shapes = r->pos;
    if (!read_shapes(r, info)) return 0;
    info->waveforms = (flags & 0x02u) ? r->pos : 0u;
    if (!read_waveforms(r, info)) return 0;

    info->records = r->pos;
    info->records_end = length;
    info->keyframes = 0;
    info->active = 0;
    if (flags & 0x01u) {
        /* records + 16 x keyframes + 8 x active == what remains, checked term by term (no overflow) */
        uint32_t rest = remaining(r);
        if (records_length > rest || info->keyframe_count > (rest - records_length) / TL_KEYFRAME_SIZE ||
            info->active_count > (rest - records_length - info->keyframe_count * TL_KEYFRAME_SIZE) / TL_ACTIVE_SIZE) {
            return fail(r, THR_TL_TRUNCATED, length);
        }
        rest -= records_length + info->keyframe_count * TL_KEYFRAME_SIZE + info->active_count * TL_ACTIVE_SIZE;
        if (rest > 0u) return fail(r, THR_TL_TRAILING_BYTES, length - rest);
        info->records_end = r->pos + records_length;
        info->keyframes = info->records_end;
        info->active = info->keyframes + info->keyframe_count * TL_KEYFRAME_SIZE;
    }

    r->limit = info->records_end;
    count = 0;
    while (r->pos < r->limit) {
        if (!read_record(r, info, &time, &latest, &rec)) return 0;
        if (rec.kind == THR_REC_EVENT) {
            uint32_t end = rec.start + rec.duration;
            if (end > event_latest) event_latest = end;
        }
        count++;
    }
    r->limit = length;
    info->record_count = count;
    info->event_end = event_latest;
    if (latest != info->duration) return fail(r, THR_TL_DURATION_MISMATCH, duration_at);

    return (flags & 0x01u) ? read_index(r, info) : 1;
}

thr_tl_result thr_tl_validate(const uint8_t *bytes, uint32_t length, thr_tl_info *info)
{
    reader r;
    reader_init(&r, bytes, 0, length);
    validate(&r, bytes, length, info);
    return r.result;
}

int thr_tl_read_record(const uint8_t *bytes, const thr_tl_info *info, uint32_t offset, uint32_t base, thr_record *out)
{
    reader r;
    uint32_t time = base, latest = 0;
    if (offset < info->records || offset >= info->records_end) return 0;
    reader_init(&r, bytes, offset, info->records_end);
    return read_record(&r, info, &time, &latest, out);
}

int thr_tl_read_point(const uint8_t *bytes, uint32_t end, uint32_t *offset, uint32_t *delta, uint8_t *value)
{
    reader r;
    reader_init(&r, bytes, *offset, end);
    if (!rd_varint(&r, delta) || !rd_byte(&r, value)) return 0;
    *offset = r.pos;
    return 1;
}
