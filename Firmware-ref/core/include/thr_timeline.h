/* Timeline bytes (Protocol/TIMELINE.md): validation of untrusted bytes and record reading. */
#ifndef THR_TIMELINE_H
#define THR_TIMELINE_H

#include <stdint.h>

#define THR_MAX_TICKS 0x7FFFFFFFu

/* TIMELINE.md §6 reason codes, in the order of the spec's list. */
typedef enum thr_tl_error {
    THR_TL_OK = 0,
    THR_TL_TRUNCATED,
    THR_TL_BAD_MAGIC,
    THR_TL_BAD_VERSION,
    THR_TL_BAD_FLAGS,
    THR_TL_BAD_CHECKSUM,
    THR_TL_BAD_VARINT,
    THR_TL_COUNT_OUT_OF_RANGE,
    THR_TL_VALUE_OUT_OF_RANGE,
    THR_TL_TIME_OUT_OF_RANGE,
    THR_TL_BAD_SHAPE,
    THR_TL_BAD_WAVEFORM,
    THR_TL_BAD_RECORD,
    THR_TL_INDEX_OUT_OF_RANGE,
    THR_TL_DURATION_MISMATCH,
    THR_TL_BAD_KEYFRAME,
    THR_TL_TRAILING_BYTES
} thr_tl_error;

/* The spec's reason text ("bad-varint", ...), static. */
const char *thr_tl_error_name(thr_tl_error error);

/* Where the sections of a validated timeline are (offsets from its first byte). */
typedef struct thr_tl_info {
    uint32_t checksum;
    uint32_t duration;  /* header duration, ticks */
    uint32_t event_end; /* latest event start + duration: the default loop end (SEMANTICS §7.3) */
    uint32_t shapes;    /* offset of shape 0 */
    uint32_t shape_count;
    uint32_t waveforms; /* offset of the waveform table (0 when absent) */
    uint32_t waveform_count;
    uint32_t records; /* offset of the records section */
    uint32_t records_end;
    uint32_t keyframes; /* offset of keyframe 0 (0 when absent) */
    uint32_t keyframe_count;
    uint32_t active; /* offset of active entry 0 */
    uint32_t active_count;
    uint32_t record_count;
    uint8_t stride;
    uint8_t flags;
} thr_tl_info;

typedef struct thr_tl_result {
    thr_tl_error error;
    uint32_t offset; /* timeline offset of the error */
} thr_tl_result;

/* Validates `length` untrusted bytes completely (TIMELINE.md §6). On success fills `info`.
 * Never reads outside [bytes, bytes + length), allocates nothing, always ends. */
thr_tl_result thr_tl_validate(const uint8_t *bytes, uint32_t length, thr_tl_info *info);

enum { THR_REC_EVENT = 0, THR_REC_PARAMETER = 1, THR_REC_CURVE = 2 };
enum { THR_EV_TRANSIENT = 0, THR_EV_CONTINUOUS = 1, THR_EV_AUDIO_CONTINUOUS = 2, THR_EV_AUDIO_CUSTOM = 3 };

/* One decoded record of a validated timeline. */
typedef struct thr_record {
    uint32_t offset;                             /* timeline offset of its tag */
    uint32_t next;                               /* timeline offset of the next record */
    uint32_t start;                              /* ticks */
    uint8_t kind;                                /* THR_REC_* */
    uint8_t control;                             /* parameter/curve: control code 0..11 */
    uint8_t value;                               /* parameter: raw value byte */
    uint8_t event_type;                          /* event: THR_EV_* */
    uint8_t shape_flags;                         /* event: the shape's kind-and-flags byte */
    uint8_t level, tone, attack, decay, release; /* event: shape values (UQ8) */
    uint32_t duration;                           /* event: ticks (0 without has-duration) */
    uint32_t waveform;                           /* event: waveform index (AudioCustom) */
    uint32_t points;                             /* curve: offset of its first point */
    uint32_t point_count;                        /* curve */
} thr_record;

/* Reads the record at `offset` whose predecessor started at `base` (0 for the first).
 * For validated timelines; still bounds-checked: returns 0 on any inconsistency. */
int thr_tl_read_record(const uint8_t *bytes, const thr_tl_info *info, uint32_t offset, uint32_t base, thr_record *out);

/* Reads one curve point at `*offset` (updated): delta ticks and raw value. 0 on failure. */
int thr_tl_read_point(const uint8_t *bytes, uint32_t end, uint32_t *offset, uint32_t *delta, uint8_t *value);

#endif
