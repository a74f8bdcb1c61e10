#!/usr/bin/env python3
"""Writes valid.json and invalid.json from the byte layouts below.

Every case's bytes are written out by hand from Protocol/WAVEFORM.md section 2 (the comments give
the derivation); this script only checks them (each valid case's bytes against its decoded fields,
every case against a literal reading of the table's rules) and writes the tables. Waveform objects have no checksum of their own, so nothing is computed.
It never runs the Swift compiler. Run from anywhere: python3 scripts/generate/waveform_vectors.py
"""
import json, os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Protocol", "vectors", "waveform")
HEAD = "57 46 01 00"  # magic "WF", version 1, format 0 (signed 8-bit mono)


def assemble(spec):
    return bytes(int(tok, 16) for tok in spec.split()).hex(" ").upper()


valid = []

def V(id_, comment, spec, resource, rate, samples):
    raw = bytes.fromhex(spec)
    # Cross-check the hand-written bytes against the decoded fields (WAVEFORM.md section 2).
    assert raw[0:4] == bytes.fromhex(HEAD), id_
    assert int.from_bytes(raw[4:8], "little") == resource, id_
    assert int.from_bytes(raw[8:12], "little") == rate, id_
    assert [b - 256 if b > 127 else b for b in raw[12:]] == samples, id_
    valid.append({"id": id_, "comment": comment, "bytes": assemble(spec), "result": "valid",
                  "decoded": {"resource": resource, "rate": rate, "samples": samples}})

V("wf-one-sample", "Resource 1, 8000 Hz (1F40 = 40 1F 00 00), a single sample 0: the smallest valid object, 13 bytes.",
  HEAD + " 01 00 00 00 40 1F 00 00 00", 1, 8000, [0])
V("wf-full-scale", "Resource 7, 16000 Hz (3E80), samples 0, 64 (0.5), 127 (largest), -128 (80, -1), -1 (FF), 1.",
  HEAD + " 07 00 00 00 80 3E 00 00 00 40 7F 80 FF 01", 7, 16000, [0, 64, 127, -128, -1, 1])
V("wf-largest-resource", "Resource FFFFFFFF (4294967295) and rate 1 Hz: both fields take any value from 1.",
  HEAD + " FF FF FF FF 01 00 00 00 10 F0", 0xFFFFFFFF, 1, [16, -16])
V("wf-simulator-rate", "Resource 2 at the simulator's 8000 Hz: one tick (1 ms) of 8 samples, a ramp -96 (A0) to 96 (60) in steps of 32 then -32 (E0).",
  HEAD + " 02 00 00 00 40 1F 00 00 A0 C0 E0 00 20 40 60 E0", 2, 8000, [-96, -64, -32, 0, 32, 64, 96, -32])

invalid = []

def X(id_, comment, spec, error, offset):
    invalid.append({"id": id_, "comment": comment, "bytes": assemble(spec), "result": "invalid",
                    "error": error, "offset": offset})

X("wf-empty", "No bytes at all: truncated at the size, 0.", "", "truncated", 0)
X("wf-one-byte", "Only the first magic byte: too short to judge the magic, truncated at 1.", "57", "truncated", 1)
X("wf-bad-magic-short", "A timeline's magic (54 4C, TL) in a 2-byte buffer: bad magic, not truncation, as the timeline reader does.", "54 4C", "bad-magic", 0)
X("wf-bad-magic", "A whole object whose second magic byte is 47 instead of 46.",
  "57 47 01 00 01 00 00 00 40 1F 00 00 00", "bad-magic", 0)
X("wf-bad-version-zero", "Version 0.", "57 46 00 00 01 00 00 00 40 1F 00 00 00", "bad-version", 2)
X("wf-bad-version-two", "Version 2.", "57 46 02 00 01 00 00 00 40 1F 00 00 00", "bad-version", 2)
X("wf-bad-format", "Format 01: no sample format but 00 is defined.", "57 46 01 01 01 00 00 00 40 1F 00 00 00", "bad-flags", 3)
X("wf-bad-format-checked-first", "Format 80 and resource 0: the format is checked before the resource.",
  "57 46 01 80 00 00 00 00 40 1F 00 00 00", "bad-flags", 3)
X("wf-resource-zero", "Resource 0: registerAudioResource IDs start at 1.", "57 46 01 00 00 00 00 00 40 1F 00 00 00", "value-out-of-range", 4)
X("wf-resource-zero-short", "Resource 0 then the buffer ends inside the rate: the resource is checked before the truncation after it.",
  "57 46 01 00 00 00 00 00 40 1F", "value-out-of-range", 4)
X("wf-rate-zero", "Rate 0 Hz.", "57 46 01 00 01 00 00 00 00 00 00 00 00", "value-out-of-range", 8)
X("wf-rate-zero-no-samples", "Rate 0 and no samples: the rate is checked before the samples.",
  "57 46 01 00 01 00 00 00 00 00 00 00", "value-out-of-range", 8)
X("wf-truncated-header", "Ends after the version, inside the format: truncated at the size, 3.", "57 46 01", "truncated", 3)
X("wf-truncated-resource", "Ends inside the resource, after two of its bytes: truncated at the size, 6.",
  "57 46 01 00 01 00", "truncated", 6)
X("wf-truncated-rate", "Ends inside the rate, after three of its bytes: truncated at the size, 11.",
  "57 46 01 00 01 00 00 00 40 1F 00", "truncated", 11)
X("wf-no-samples", "Exactly the 12-byte header and no samples: truncated at 12.",
  "57 46 01 00 01 00 00 00 40 1F 00 00", "truncated", 12)


def validate(raw):
    """WAVEFORM.md section 2 read literally, as a cross-check of the hand-written expectations."""
    n = len(raw)
    if n >= 2 and raw[0:2] != b"WF": return ("bad-magic", 0)
    if n < 3: return ("truncated", n)
    if raw[2] != 1: return ("bad-version", 2)
    if n < 4: return ("truncated", n)
    if raw[3] != 0: return ("bad-flags", 3)
    if n < 8: return ("truncated", n)
    if int.from_bytes(raw[4:8], "little") < 1: return ("value-out-of-range", 4)
    if n < 12: return ("truncated", n)
    if int.from_bytes(raw[8:12], "little") < 1: return ("value-out-of-range", 8)
    if n < 13: return ("truncated", n)
    return None

for case in valid:
    assert validate(bytes.fromhex(case["bytes"])) is None, case["id"]
for case in invalid:
    assert validate(bytes.fromhex(case["bytes"])) == (case["error"], case["offset"]), case["id"]


def write(name, description, cases):
    table = {"format": "thrum-waveform", "version": 1, "spec": "Protocol/WAVEFORM.md",
             "description": description, "cases": cases}
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(table, f, indent=1, ensure_ascii=False)
        f.write("\n")

write("valid.json",
      "Waveform objects every reader must accept (hex bytes). decoded: resource ID, rate in Hz and the samples as "
      "signed integers (each the value q / 128). Ids start wf- so that they never collide with the timeline "
      "vectors' ids.",
      valid)
write("invalid.json",
      "Byte strings every reader must reject, with the reason code and offset of WAVEFORM.md section 2: fields checked "
      "in table order; an object ending inside a field or without samples is truncated at its size. Ids start "
      "wf- so that they never collide with the timeline vectors' ids.",
      invalid)
print(len(valid), "valid,", len(invalid), "invalid")
