#!/usr/bin/env python3
"""Writes valid.json and invalid.json from the byte layouts below.

Every case's bytes are assembled by hand from Protocol/TIMELINE.md (the comments give the
derivation); this script only fills in the CRC-32 field (zlib.crc32 = CRC-32/ISO-HDLC over
bytes 0-3 then 8..end, TIMELINE.md section 3) and writes the tables. It never runs the Swift
compiler. The token CRC stands for the four checksum bytes; BADCRC keeps them wrong on purpose.
Run from anywhere: python3 scripts/generate/timeline_vectors.py
"""
import json, os, zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Protocol", "vectors", "timeline")


def assemble(spec):
    tokens = spec.split()
    out = bytearray()
    crc_at = None
    bad = False
    for tok in tokens:
        if tok in ("CRC", "BADCRC"):
            crc_at = len(out)
            bad = tok == "BADCRC"
            out += b"\0\0\0\0"
        elif tok.startswith("'"):
            out += tok[1:].encode()
        else:
            out.append(int(tok, 16))
    if crc_at is not None:
        crc = zlib.crc32(bytes(out[0:4]) + bytes(out[8:])) & 0xFFFFFFFF
        if bad:
            crc ^= 0x00000001
        out[crc_at:crc_at + 4] = crc.to_bytes(4, "little")
    return out.hex(" ").upper()


def ev(type_, time, duration=0, **params):
    e = {"type": type_, "time": time, "duration": duration, "parameters": params}
    return e

# ---------------------------------------------------------------------------------------------
# Valid cases: pattern -> exact bytes.
# Quantisation used below: UQ8 q = round(v*255), SQ8 q = round(v*127), halves away from zero.
# Defaults: transient intensity 0.75 -> 191.25 -> BF, sharpness 0.5 -> 127.5 -> 128 = 80;
# continuous intensity 0.6 -> 153 = 99, sharpness 0.422601 -> 107.76 -> 108 = 6C; Sustained 1.
# ---------------------------------------------------------------------------------------------
valid = []

def V(id_, comment, pattern, spec, duration_ticks, records, options=None):
    case = {"id": id_, "comment": comment, "input": pattern}
    if options:
        case["options"] = options
    case.update({"bytes": assemble(spec), "result": "valid",
                 "decoded": {"duration_ticks": duration_ticks, "records": records}})
    valid.append(case)

V("empty-pattern",
  "No events, parameters or curves: header only. duration 0, 0 shapes, no records.",
  {"events": [], "parameters": [], "curves": []},
  "54 4C 01 00 CRC 00 00", 0, 0)

V("single-transient",
  "HapticTransient at 0 s, intensity 0.8 (204 = CC), sharpness 0.4 (102 = 66). Shape byte 04: "
  "type 0, Sustained (default 1), no duration. Record: tag 00 (event, shape 0), delta 00.",
  {"events": [ev("HapticTransient", 0.0, HapticIntensity=0.8, HapticSharpness=0.4)]},
  "54 4C 01 00 CRC 00 01 04 CC 66 00 00", 0, 1)

V("transient-defaults",
  "A transient without parameters stores its type's defaults: 0.75 -> BF, 0.5 -> 127.5 rounds half away to 80. "
  "At 0.1 s: delta 100 = 64. Duration = 100 ticks (its start).",
  {"events": [ev("HapticTransient", 0.1)]},
  "54 4C 01 00 CRC 64 01 04 BF 80 00 64", 100, 1)

V("transient-with-duration",
  "A transient's EventDuration pads the pattern (Core Haptics' duration). Shape 0C: Sustained + has-duration; "
  "record carries duration 100 (64). Header duration 100.",
  {"events": [ev("HapticTransient", 0.0, 0.1, HapticIntensity=1.0, HapticSharpness=0.0)]},
  "54 4C 01 00 CRC 64 01 0C FF 00 00 00 64", 100, 1)

V("continuous-event",
  "HapticContinuous at 0.015 s for 0.25 s: start tick 15 (0F), end round(265) so duration 250 = FA 01. "
  "Shape 0D: type 1 + Sustained 04 + has-duration 08. Header duration 265 = 89 02.",
  {"events": [ev("HapticContinuous", 0.015, 0.25, HapticIntensity=0.8, HapticSharpness=0.4)]},
  "54 4C 01 00 CRC 89 02 01 0D CC 66 00 0F FA 01", 265, 1)

V("boing",
  "Apple's Boing: transient at 0, continuous at 0.015 for 0.25, intensity curve at 0.015 with points "
  "(0,1) (0.1,0.5) (0.25,0) and sharpness curve at 0.015 with (0,0) (0.25,-0.3). "
  "Shapes: 04 CC 66, 0D CC 66. Records: event s0 t0 [00 00]; event s1 t15 [04 0F FA 01]; "
  "curve code 0 with 3 points in the tag: C2, delta 00, points 00 FF | 64 80 | 96 01 00 (dt 150); "
  "curve code 1 with 2 points: 86, delta 00, points 00 00 | FA 01 DA (-0.3*127 = -38.1 -> -38 = DA). "
  "Header duration 265.",
  {"events": [ev("HapticTransient", 0.0, HapticIntensity=0.8, HapticSharpness=0.4),
              ev("HapticContinuous", 0.015, 0.25, HapticIntensity=0.8, HapticSharpness=0.4)],
   "curves": [{"id": "HapticIntensityControl", "time": 0.015, "points": [[0, 1.0], [0.1, 0.5], [0.25, 0.0]]},
              {"id": "HapticSharpnessControl", "time": 0.015, "points": [[0, 0.0], [0.25, -0.3]]}]},
  "54 4C 01 00 CRC 89 02 02 04 CC 66 0D CC 66 "
  "00 00 04 0F FA 01 C2 00 00 FF 64 80 96 01 00 86 00 00 00 FA 01 DA", 265, 4)

V("parameters",
  "Two parameter steps at 0.5 s: HapticIntensityControl 0.5 (UQ8 80; tag 01, delta 500 = F4 03) and "
  "HapticSharpnessControl -1 (SQ8 -127 = 81; tag 05, delta 00). No shapes. Duration 500.",
  {"parameters": [{"id": "HapticIntensityControl", "time": 0.5, "value": 0.5},
                  {"id": "HapticSharpnessControl", "time": 0.5, "value": -1.0}]},
  "54 4C 01 00 CRC F4 03 00 01 F4 03 80 05 00 81", 500, 2)

V("envelope-stride-6",
  "Continuous at 0 for 1 s, AttackTime 0.5 (80), ReleaseTime 1 (FF), Sustained 0: shape byte 09 "
  "(type 1 + has-duration), defaults 99 6C, attack 80 decay 00 release FF. Flags 04 = stride code 1 (6 bytes). "
  "Duration 1000 = E8 07.",
  {"events": [ev("HapticContinuous", 0.0, 1.0, AttackTime=0.5, ReleaseTime=1.0, Sustained=0.0)]},
  "54 4C 01 04 CRC E8 07 01 09 99 6C 80 00 FF 00 00 E8 07", 1000, 1)

V("audio-continuous-stride-8",
  "AudioContinuous at 0 for 0.5 s with AudioPitch -0.5 (-63.5 rounds away to -64 = C0) and AudioPan 0.25 "
  "(31.75 -> 32 = 20): flags 08 = stride code 2. Shape 0E (type 2 + Sustained + has-duration), "
  "volume 1 (FF), brightness 1 (FF), attack/decay/release 0, pitch C0, pan 20. Duration 500 = F4 03.",
  {"events": [ev("AudioContinuous", 0.0, 0.5, AudioPitch=-0.5, AudioPan=0.25)]},
  "54 4C 01 08 CRC F4 03 01 0E FF FF 00 00 00 C0 20 00 00 F4 03", 500, 1)

V("audio-custom-path",
  "AudioCustom at 0.1 s, no duration, EventWaveformPath a.wav: flags 02 (waveform table). Header: duration 64, "
  "1 shape, 1 waveform. Shape 17 = type 3 + Sustained + UseVolumeEnvelope (default true); volume and "
  "brightness FF. Waveform: kind 01, length 05, 'a.wav'. Record: tag 00, delta 64, waveform index 00.",
  {"events": [dict(ev("AudioCustom", 0.1), waveform={"path": "a.wav"})]},
  "54 4C 01 02 CRC 64 01 01 17 FF FF 01 05 'a.wav 00 64 00", 100, 1)

V("audio-custom-resource-loop",
  "AudioCustom at 0 for 0.25 s playing registered resource 300 with looping on and no volume envelope: "
  "shape 2F = type 3 + Sustained 04 + has-duration 08 + loop 20. Waveform kind 02, varint 300 = AC 02. "
  "Record: 00 00, duration FA 01, waveform 00. Duration 250.",
  {"events": [dict(ev("AudioCustom", 0.0, 0.25), waveform={"resourceID": 300, "useVolumeEnvelope": False, "loopEnabled": True})]},
  "54 4C 01 02 CRC FA 01 01 01 2F FF FF 02 AC 02 00 00 FA 01 00", 250, 1)

V("curve-long-and-empty",
  "A HapticIntensityControl curve at 0 with 4 points (0,0) (0.001,1) (0.002,0) (0.003,1): tag 02 (count in "
  "varint), delta 00, count 04, points 00 00 | 01 FF | 01 00 | 01 FF. Then a HapticReleaseTimeControl curve "
  "(code 4) at 0.01 s without points: tag 12, delta 0A, count 00. Duration max(3, 10) = 10.",
  {"curves": [{"id": "HapticIntensityControl", "time": 0.0, "points": [[0, 0.0], [0.001, 1.0], [0.002, 0.0], [0.003, 1.0]]},
              {"id": "HapticReleaseTimeControl", "time": 0.01, "points": []}]},
  "54 4C 01 00 CRC 0A 00 02 00 04 00 00 01 FF 01 00 01 FF 12 0A 00", 10, 2)

V("equal-ticks-order",
  "At one tick: events first, then parameters, then curves, whatever their authored order. A curve "
  "(HapticSharpnessControl, 1 point (0, 0.5) = SQ8 64 = 40, tag 46), a parameter (HapticIntensityControl 1 "
  "= FF, tag 01) and a transient (intensity 1, sharpness 1) all at 0.0004 s (tick 0).",
  {"events": [ev("HapticTransient", 0.0004, HapticIntensity=1.0, HapticSharpness=1.0)],
   "parameters": [{"id": "HapticIntensityControl", "time": 0.0004, "value": 1.0}],
   "curves": [{"id": "HapticSharpnessControl", "time": 0.0004, "points": [[0, 0.5]]}]},
  "54 4C 01 00 CRC 00 01 04 FF FF 00 00 01 00 FF 46 00 00 40", 0, 3)

# 64 transients at 0,1,...,63 ms with intensity k/255 (k = 0..63), sharpness 0: 64 distinct shapes.
# Shape k = 04 kk 00. Record k: tag (k << 2) for k < 63, delta 00 for the first then 01;
# shape 63 needs the extension: tag FC, delta 01, extension varint 00.
shapes = " ".join(f"04 {k:02X} 00" for k in range(64))
recs = ["00 00"] + [f"{(k << 2):02X} 01" for k in range(1, 63)] + ["FC 01 00"]
V("shape-index-extension",
  "64 transients 1 ms apart, intensities k/255 (k = 0…63), sharpness 0: 64 shapes (count 40). Shape index 63 "
  "does not fit in the tag: tag FC (index 63 = escape), delta 01, extension varint 00. Duration 63 = 3F.",
  {"events": [ev("HapticTransient", k / 1000, HapticIntensity=k / 255, HapticSharpness=0.0) for k in range(64)]},
  "54 4C 01 00 CRC 3F 40 " + shapes + " " + " ".join(recs), 63, 64)

V("keyframes",
  "Keyframe index forced on (options keyframes always, interval 1 s). Transient at 0 (shape 0 = 04 BF 80), "
  "parameter HapticIntensityControl 0.5 at 0.2, continuous at 0.5 for 1 s (shape 1 = 0D 99 6C), transient at 1.0. "
  "Records (offsets 0, 2, 6, 11): 00 00 | 01 C8 01 80 | 04 AC 02 E8 07 | 00 F4 03 -> records length 14 (0E). "
  "One keyframe at the record starting at 1000 ticks: time E8 03 00 00, offset 0B, base time 500 (F4 01), "
  "first active 0. Active entries, by offset: 2 (t 200, the last HapticIntensityControl record) and 6 (t 500, the "
  "continuous event: end 1500 + TAIL 1000 > 1000); the transient at 0 is not listed (0 + TAIL 20 <= 1000). "
  "Flags 01; header: duration 1500 = DC 0B, 2 shapes, records length 0E, 1 keyframe, 2 active.",
  {"events": [ev("HapticTransient", 0.0), ev("HapticContinuous", 0.5, 1.0), ev("HapticTransient", 1.0)],
   "parameters": [{"id": "HapticIntensityControl", "time": 0.2, "value": 0.5}]},
  "54 4C 01 01 CRC DC 0B 02 0E 01 02 04 BF 80 0D 99 6C "
  "00 00 01 C8 01 80 04 AC 02 E8 07 00 F4 03 "
  "E8 03 00 00 0B 00 00 00 F4 01 00 00 00 00 00 00 "
  "02 00 00 00 C8 00 00 00 06 00 00 00 F4 01 00 00", 1500, 4,
  options={"keyframes": "always", "keyframeInterval": 1.0})

# ---------------------------------------------------------------------------------------------
# Invalid cases: bytes -> rejection (reason code + timeline offset). CRC is valid unless the
# case is about the checksum, so a reader reaches the fault the case is about.
# ---------------------------------------------------------------------------------------------
invalid = []

def X(id_, comment, spec, error, offset):
    invalid.append({"id": id_, "comment": comment, "bytes": assemble(spec), "result": "invalid",
                    "error": error, "offset": offset})

SINGLE = "54 4C 01 00 CRC 00 01 04 CC 66 00 00"  # the single-transient vector

X("empty", "No bytes at all.", "", "truncated", 0)
X("truncated-magic", "Only the first magic byte.", "54", "truncated", 1)
X("bad-magic", "Second magic byte 4D instead of 4C.", "54 4D 01 00 CRC 00 01 04 CC 66 00 00", "bad-magic", 0)
X("bad-magic-short", "Wrong magic in a 2-byte buffer is reported as bad magic, not truncation.", "41 42", "bad-magic", 0)
X("bad-version", "Version 2.", "54 4C 02 00 CRC 00 01 04 CC 66 00 00", "bad-version", 2)
X("bad-version-zero", "Version 0.", "54 4C 00 00 CRC 00 01 04 CC 66 00 00", "bad-version", 2)
X("reserved-flag", "Flag bit 4 is reserved.", "54 4C 01 10 CRC 00 01 04 CC 66 00 00", "bad-flags", 3)
X("stride-code-3", "Shape stride code 3 (flags 0C) is reserved.", "54 4C 01 0C CRC 00 01 04 CC 66 00 00", "bad-flags", 3)
X("truncated-checksum", "Header cut inside the checksum (7 bytes).", "54 4C 01 00 00 00 00", "truncated", 7)
X("bad-checksum", "Single transient with the checksum's lowest bit flipped.", "54 4C 01 00 BADCRC 00 01 04 CC 66 00 00", "bad-checksum", 4)
X("bad-checksum-body", "Single transient whose intensity byte changed after the CRC was computed (CD instead of CC).",
  "54 4C 01 00 " + assemble(SINGLE).split(" ", 4)[4][:11] + " 00 01 04 CD 66 00 00", "bad-checksum", 4)
X("truncated-duration", "Ends inside the duration varint (80 continues).", "54 4C 01 00 CRC 80", "truncated", 9)
X("truncated-shape-count", "Ends before the shape count.", "54 4C 01 00 CRC 00", "truncated", 9)
X("overlong-varint", "Duration 0 written as 80 00 (not the shortest form).", "54 4C 01 00 CRC 80 00 01 04 CC 66 00 00", "bad-varint", 8)
X("varint-too-big", "Shape count FF FF FF FF 1F exceeds 32 bits (fifth byte > 0F).", "54 4C 01 00 CRC 00 FF FF FF FF 1F", "bad-varint", 9)
X("varint-six-bytes", "Shape count with six bytes.", "54 4C 01 00 CRC 00 80 80 80 80 80 00", "bad-varint", 9)
X("duration-too-large", "Header duration 2^31 (80 80 80 80 08) exceeds MAX_TICKS.", "54 4C 01 00 CRC 80 80 80 80 08 00", "time-out-of-range", 8)
X("too-many-shapes", "Shape count 2^24 (80 80 80 08) exceeds 16,777,215.", "54 4C 01 00 CRC 00 80 80 80 08", "count-out-of-range", 9)
X("shapes-truncated", "Two shapes announced, one present: 6 bytes needed, 5 remain (3 + record 2) -> truncated at the end (15).",
  "54 4C 01 00 CRC 00 02 04 CC 66 00 00", "truncated", 15)
X("shape-reserved-bits", "Shape byte 44 sets reserved bit 6.", "54 4C 01 00 CRC 00 01 44 CC 66 00 00", "bad-shape", 10)
X("continuous-without-duration", "Shape 05: HapticContinuous without has-duration.", "54 4C 01 00 CRC 00 01 05 CC 66 00 00", "bad-shape", 10)
X("waveform-flags-on-haptic", "Shape 14: loop/volume-envelope bit on a transient.", "54 4C 01 00 CRC 00 01 14 CC 66 00 00", "bad-shape", 10)
X("pitch-on-haptic", "Stride 8 shape of a transient with pitch 01.", "54 4C 01 08 CRC 00 01 04 CC 66 00 00 00 01 00 00 00", "bad-shape", 16)
X("pitch-minus-128", "Audio shape with pitch 80 (-128, not SQ8).", "54 4C 01 08 CRC F4 03 01 0E FF FF 00 00 00 80 20 00 00 F4 03", "value-out-of-range", 17)
X("truncated-record", "Single transient without its delta byte.", "54 4C 01 00 CRC 00 01 04 CC 66 00", "truncated", 14)
X("shape-index-out-of-range", "Event tag 04 names shape 1; there is one shape.", "54 4C 01 00 CRC 00 01 04 CC 66 04 00", "index-out-of-range", 13)
X("shape-extension-out-of-range", "Event tag FC, extension 00 names shape 63; there is one shape.", "54 4C 01 00 CRC 00 01 04 CC 66 FC 00 00", "index-out-of-range", 15)
X("record-kind-3", "Tag 03: record kind 3 is reserved.", "54 4C 01 00 CRC 00 01 04 CC 66 03 00", "bad-record", 13)
X("unknown-control", "Parameter tag 31 names control 12.", "54 4C 01 00 CRC 00 00 31 00 00", "bad-record", 10)
X("parameter-reserved-bits", "Parameter tag 41 sets reserved bit 6.", "54 4C 01 00 CRC 00 00 41 00 00", "bad-record", 10)
X("control-value-minus-128", "HapticSharpnessControl (SQ8) value 80.", "54 4C 01 00 CRC 00 00 05 00 80", "value-out-of-range", 12)
X("time-out-of-range", "First parameter at MAX_TICKS (FF FF FF FF 07), second 1 tick later: the second delta (offset 22) overflows.",
  "54 4C 01 00 CRC FF FF FF FF 07 00 01 FF FF FF FF 07 80 01 01 80", "time-out-of-range", 22)
X("event-end-out-of-range", "Continuous event at MAX_TICKS with duration 1.",
  "54 4C 01 00 CRC FF FF FF FF 07 01 0D CC 66 00 FF FF FF FF 07 01", "time-out-of-range", 23)
X("duration-mismatch", "Single transient (ends at 0) with header duration 1.", "54 4C 01 00 CRC 01 01 04 CC 66 00 00", "duration-mismatch", 8)
X("duration-mismatch-short", "Continuous event ending at 265 with header duration 264 (88 02).", "54 4C 01 00 CRC 88 02 01 0D CC 66 00 0F FA 01", "duration-mismatch", 8)
X("curve-count-not-inline", "Curve with count 2 in the varint (must be in the tag).", "54 4C 01 00 CRC 00 00 02 00 02 00 00 00 00", "bad-record", 12)
X("curve-too-many-points", "Curve count 65536 (80 80 04).", "54 4C 01 00 CRC 00 00 02 00 80 80 04", "count-out-of-range", 12)
X("curve-points-truncated", "Curve announces 1000 points (E8 07) with 4 bytes left.", "54 4C 01 00 CRC 00 00 02 00 E8 07 00 00 00 00", "truncated", 18)
X("curve-inline-points-truncated", "Tag C2 says 3 points, only one present.", "54 4C 01 00 CRC 00 00 C2 00 00 FF", "truncated", 14)
X("curve-point-value-minus-128", "HapticSharpnessControl curve (tag 46, 1 point) with value 80.", "54 4C 01 00 CRC 00 00 46 00 00 80", "value-out-of-range", 13)
X("waveform-count-zero", "WAVEFORMS flag with count 0.", "54 4C 01 02 CRC 00 00 00", "count-out-of-range", 10)
X("waveform-bad-kind", "Waveform kind 03.", "54 4C 01 02 CRC 00 00 01 03", "bad-waveform", 11)
X("waveform-empty-path", "Path of length 0.", "54 4C 01 02 CRC 00 00 01 01 00", "bad-waveform", 12)
X("waveform-bad-utf8", "Path byte FF is not UTF-8.", "54 4C 01 02 CRC 00 00 01 01 01 FF", "bad-waveform", 13)
X("waveform-path-truncated", "Path of length 5 with 2 bytes present.", "54 4C 01 02 CRC 00 00 01 01 05 61 62", "truncated", 13)
X("audio-custom-without-table", "AudioCustom event (shape 17) and no waveform table.", "54 4C 01 00 CRC 64 01 17 FF FF 00 64 00", "index-out-of-range", 15)
X("waveform-index-out-of-range", "AudioCustom event naming waveform 1 of 1.", "54 4C 01 02 CRC 64 01 01 17 FF FF 01 05 'a.wav 00 64 01", "index-out-of-range", 23)

KF_HEAD = "54 4C 01 01 CRC DC 0B 02 0E 01 02 04 BF 80 0D 99 6C "
KF_RECS = "00 00 01 C8 01 80 04 AC 02 E8 07 00 F4 03 "
KF_ACTIVE = "02 00 00 00 C8 00 00 00 06 00 00 00 F4 01 00 00"
KF_FRAME = "E8 03 00 00 0B 00 00 00 F4 01 00 00 00 00 00 00 "
# Offsets: header 8..13 (duration 8-9, shapes 10, length 11, keyframes 12, active 13), shapes 14..19,
# records 20..33, keyframe 34..49, active entries 50..65 (total 66 bytes).
X("keyframes-truncated", "The keyframes vector without its last byte.", KF_HEAD + KF_RECS + KF_FRAME + KF_ACTIVE[:-3], "truncated", 65)
X("keyframes-trailing", "The keyframes vector with one extra byte.", KF_HEAD + KF_RECS + KF_FRAME + KF_ACTIVE + " 00", "trailing-bytes", 66)
X("keyframe-inside-record", "Keyframe record offset 0C points inside the last record.",
  KF_HEAD + KF_RECS + "E8 03 00 00 0C 00 00 00 F4 01 00 00 00 00 00 00 " + KF_ACTIVE, "bad-keyframe", 38)
X("keyframe-wrong-time", "Keyframe time 999 (E7 03) but the record starts at 1000.",
  KF_HEAD + KF_RECS + "E7 03 00 00 0B 00 00 00 F4 01 00 00 00 00 00 00 " + KF_ACTIVE, "bad-keyframe", 34)
X("keyframe-wrong-base", "Keyframe base time 499 (F3 01); the previous record starts at 500.",
  KF_HEAD + KF_RECS + "E8 03 00 00 0B 00 00 00 F3 01 00 00 00 00 00 00 " + KF_ACTIVE, "bad-keyframe", 42)
X("keyframe-first-active", "First keyframe's first active entry is 1, not 0.",
  KF_HEAD + KF_RECS + "E8 03 00 00 0B 00 00 00 F4 01 00 00 01 00 00 00 " + KF_ACTIVE, "bad-keyframe", 46)
X("active-after-keyframe", "Second active entry names the record at offset 11 (the keyframe's own record).",
  KF_HEAD + KF_RECS + KF_FRAME + "02 00 00 00 C8 00 00 00 0B 00 00 00 E8 03 00 00", "index-out-of-range", 58)
X("active-wrong-time", "Active entry for offset 6 with start 499 instead of 500.",
  KF_HEAD + KF_RECS + KF_FRAME + "02 00 00 00 C8 00 00 00 06 00 00 00 F3 01 00 00", "bad-keyframe", 62)
X("truncated-waveform-count", "WAVEFORMS flag set, the buffer ends before the waveform count.", "54 4C 01 02 CRC 00 00", "truncated", 10)
X("truncated-keyframe-header", "KEYFRAMES flag set, the buffer ends after the records length.", "54 4C 01 01 CRC 00 00 05", "truncated", 11)
X("keyframes-out-of-order", "A second keyframe, itself well-formed (record at offset 6, time 500, base 200, first active 2), "
  "placed after the keyframe at 1000: keyframe times must increase. Header keyframe count 02; keyframes at 34 and 50.",
  KF_HEAD.replace("02 0E 01 02", "02 0E 02 02") + KF_RECS + KF_FRAME + "F4 01 00 00 06 00 00 00 C8 00 00 00 02 00 00 00 " + KF_ACTIVE,
  "bad-keyframe", 50)
X("records-length-too-long", "Records length 0F: 1 byte more than fits before the index.",
  KF_HEAD.replace("02 0E 01 02", "02 0F 01 02") + KF_RECS + KF_FRAME + KF_ACTIVE, "truncated", 66)

def write(name, description, cases):
    table = {"format": "thrum-timeline", "version": 1, "spec": "Protocol/TIMELINE.md",
             "description": description, "cases": cases}
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(table, f, indent=1, ensure_ascii=False)
        f.write("\n")

write("valid.json",
      "Patterns and their exact compiled bytes (hex). Inputs: events {type, time, duration, parameters "
      "{EventParameterID: value}, waveform {path | resourceID, useVolumeEnvelope, loopEnabled}}, parameters "
      "{id, time, value}, curves {id, time, points [[time, value]]}; times in seconds. Optional options "
      "{keyframes: automatic|never|always, keyframeInterval}. decoded: header duration and record count.",
      valid)
write("invalid.json",
      "Byte strings every reader must reject, with the reason code and timeline offset of TIMELINE.md section 6. "
      "Times out of order cannot be written in records or curve points (their deltas are unsigned); the cases "
      "closest to it are time overflow and keyframes out of order.",
      invalid)
print(len(valid), "valid,", len(invalid), "invalid")
