#!/usr/bin/env python3
"""Writes Protocol/vectors/wire/*.json from the spec: COBS, bitwise CRC-32C and frames (wire_frame.py) and
its own field encoding written from PROTOCOL.md, message shapes from Protocol/messages.json. It never runs
the Swift encoder, so the vectors check the Swift (and C) implementations against the spec, not against
themselves."""
import json, os

from wire_frame import cobs, crc32c, le, plain_frame, wire

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
spec = json.load(open(os.path.join(root, "Protocol", "messages.json")))
by_name = {m["name"]: m for m in spec["messages"]}

def encode_fields(fields, values):
    out = bytearray()
    for f in fields:
        v, t = values[f["name"]], f["type"]
        if t in ("u8", "u16", "u32"):
            out += le(v, {"u8": 1, "u16": 2, "u32": 4}[t])
        elif t in ("i16", "i32"):
            out += le(v, {"i16": 2, "i32": 4}[t], signed=True)
        elif t == "bool":
            out.append(1 if v else 0)
        elif t == "str":
            raw = v.encode("utf-8"); assert len(raw) <= f["max"]
            out.append(len(raw)); out += raw
        elif t == "bytes":
            out += bytes.fromhex(v)
        elif t == "list":
            assert len(v) <= f["max"]
            out.append(len(v))
            for item in v:
                out += encode_fields(f["item"], item)
    return bytes(out)

def frame_json(channel, epoch, seq, ack, window, name, values, nak=False):
    return {"channel": channel, "nak": nak, "epoch": epoch, "seq": seq, "ack": ack, "window": window,
            "type": name, "message": values}

def message_frame(name, values, epoch=0x1234, seq=0, ack=0, window=8, channel=None, nak=False):
    m = by_name[name]
    channel = channel or (m["channel"] if m["channel"] != "any" else "control")
    payload = encode_fields(m["fields"], values)
    return wire(plain_frame(channel, epoch, seq, ack, window, m["id"], payload, nak)), frame_json(channel, epoch, seq, ack, window, name, values, nak)

def case(cid, comment, data, frames=(), reasons=(), max_payload=None):
    c = {"id": cid, "comment": comment, "hex": data.hex(), "result": "invalid" if reasons else "valid",
         "frames": list(frames), "reasons": list(reasons)}
    if max_payload is not None:
        c["max_payload"] = max_payload
    return c

def reference_decode(data, max_payload):
    """The receiver of PROTOCOL.md section 2.5, used only to cross-check the hand-stated expectations."""
    reasons, count, piece, overflowed = [], 0, bytearray(), False
    limit = max_payload + 12 + (max_payload + 12) // 254 + 1
    for byte in data:
        if byte != 0:
            if overflowed:
                continue
            if len(piece) == limit:
                overflowed, piece = True, bytearray()
            else:
                piece.append(byte)
            continue
        if overflowed:
            reasons.append("oversize"); overflowed = False; continue
        if not piece:
            continue
        plain, i, ok = bytearray(), 0, True
        while i < len(piece):
            code = piece[i]
            if i + code > len(piece):
                ok = False; break
            plain += piece[i + 1:i + code]
            i += code
            if code < 0xFF and i < len(piece):
                plain.append(0)
        piece = bytearray()
        if not ok: reasons.append("cobs_invalid"); continue
        if len(plain) < 12: reasons.append("too_short"); continue
        if len(plain) - 12 > max_payload: reasons.append("oversize"); continue
        if crc32c(plain[:-4]) != int.from_bytes(plain[-4:], "little"): reasons.append("crc_mismatch"); continue
        if plain[0] != 1: reasons.append("bad_version"); continue
        if plain[1] & ~7: reasons.append("bad_flags"); continue
        if plain[1] & 3 == 3: reasons.append("bad_channel"); continue
        if plain[7] not in {m["id"] for m in spec["messages"]}: reasons.append("unknown_type"); continue
        count += 1
    return count, reasons

def write(name, description, cases):
    for c in cases:
        count, reasons = reference_decode(bytes.fromhex(c["hex"]), c.get("max_payload", 1024))
        if name != "payloads.json":
            assert (count, reasons) == (len(c["frames"]), c["reasons"]), (c["id"], count, reasons)
        else:
            assert count + len(reasons) == 1, c["id"]
    path = os.path.join(root, "Protocol", "vectors", "wire", name)
    doc = {"description": description, "format": "see Protocol/vectors/wire/README.md", "cases": cases}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote", os.path.relpath(path, root), len(cases), "cases")

# ---------------------------------------------------------------- one valid frame per message type
samples = {
    "ACK": ({}, dict(channel="control", seq=0, ack=17, window=4)),
    "SACK": ({"held": "0501"}, dict(channel="control", seq=0, ack=17, window=4, nak=True)),
    "HELLO": ({"major": 1, "minor": 0, "max_payload": 1024, "window": 16, "nonce": 0xA1B2C3D4}, dict(epoch=0, window=16)),
    "INFO": ({"nonce": 0xA1B2C3D4, "major": 1, "minor": 0, "firmware": "0.1.0", "board": "thrum-sim", "serial": "SIM-0001",
              "max_payload": 512, "window": 4, "tick_hz": 1000, "timeline_memory": 16384, "max_timelines": 8,
              "players": 4, "max_curve_points": 16, "flash_slots": 8, "flash_slot_size": 4096, "trigger_inputs": 2,
              "audio": 3, "audio_rate_hz": 8000, "keepalive_ms": 500, "stream_max_samples": 64,
              "channels": [{"kind": 0, "resonant_dhz": 1700, "rated_mv": 2000, "max_mv": 3300},
                           {"kind": 1, "resonant_dhz": 0, "rated_mv": 3000, "max_mv": 3300}]}, dict(epoch=0x0102, window=4)),
    "PING": ({"id": 7, "host_time": 123456789, "reserved0": 0, "reserved1": 0}, {}),
    "PONG": ({"id": 7, "host_time": 123456789, "rx_time": 0xFFFFFF00, "tx_time": 0x00000010}, {}),
    "ERROR": ({"status": 13, "ref_type": 0xEE, "ref_seq": 5, "detail": "unknown message type 238"}, dict(channel="reliable", seq=9, ack=5)),
    "UPLOAD_BEGIN": ({"tag": 1, "size": 65536, "hash": 0xDEADBEEF}, dict(seq=1)),
    "UPLOAD_CHUNK": ({"tag": 2, "handle": 0, "offset": 512, "data": "00010203fffe00"}, dict(seq=2, ack=1)),
    "UPLOAD_COMMIT": ({"tag": 3, "handle": 0}, dict(seq=3)),
    "TIMELINE_FREE": ({"tag": 4, "handle": 2}, dict(seq=4)),
    "PLAYER_START": ({"tag": 5, "player": 1, "handle": 0, "at_time": 5000000, "position": 0}, dict(seq=5)),
    "PLAYER_STOP": ({"tag": 6, "player": 1, "at_time": 6000000}, dict(seq=6)),
    "PLAYER_PAUSE": ({"tag": 7, "player": 1, "at_time": 0}, dict(seq=7)),
    "PLAYER_RESUME": ({"tag": 8, "player": 1, "at_time": 4294967295}, dict(seq=8)),
    "PLAYER_SEEK": ({"tag": 9, "player": 3, "position": 250000, "at_time": 7000000}, dict(seq=9)),
    "PLAYER_LOOP": ({"tag": 10, "player": 0, "enabled": True, "loop_end": 0}, dict(seq=10)),
    "PLAYER_RATE": ({"tag": 11, "player": 0, "rate_q8": 384}, dict(seq=11)),
    "PLAYER_MUTE": ({"tag": 12, "player": 2, "muted": False}, dict(seq=12)),
    "PLAYER_CANCEL": ({"tag": 13, "player": 2}, dict(seq=13)),
    "PLAYER_PARAM": ({"tag": 14, "player": 0, "parameter": 1, "value": -8192, "at_time": 100}, dict(seq=14)),
    "PLAYER_CURVE": ({"tag": 15, "player": 0, "parameter": 0, "at_time": 2000000,
                      "points": [{"time": 0, "value": 16384}, {"time": 100000, "value": 0}, {"time": 250000, "value": -16384}]}, dict(seq=15)),
    "ENGINE_START": ({"tag": 16}, dict(seq=16)),
    "ENGINE_STOP": ({"tag": 17}, dict(seq=17)),
    "ACTUATOR_CONFIG": ({"tag": 18, "channel": 0, "kind": 0, "resonant_dhz": 1750, "rated_mv": 1800, "max_mv": 3000}, dict(seq=18)),
    "ACTUATOR_CALIBRATE": ({"tag": 19, "channel": 1}, dict(seq=19)),
    "SLOT_STORE": ({"tag": 20, "handle": 0, "slot": 3}, dict(seq=20)),
    "SLOT_LIST": ({"tag": 21}, dict(seq=21)),
    "SLOT_READ": ({"tag": 22, "slot": 3, "offset": 1024, "length": 256}, dict(seq=22)),
    "SLOT_ERASE": ({"tag": 23, "slot": 3}, dict(seq=23)),
    "SLOT_PLAY": ({"tag": 24, "slot": 3, "player": 0, "at_time": 1000}, dict(seq=24)),
    "SLOT_BIND": ({"tag": 25, "slot": 3, "trigger": 1, "input": 0}, dict(seq=25)),
    "TRACE_READ": ({"tag": 26, "channel": 0, "from_time": 1000000, "count": 200}, dict(seq=26)),
    "STREAM_SAMPLES": ({"channel": 0, "at_time": 3000000, "interval": 1000,
                        "samples": [{"amplitude": 0, "sharpness": 128}, {"amplitude": 255, "sharpness": 128}, {"amplitude": 128, "sharpness": 0}]}, dict(seq=200)),
    "RT_PARAM": ({"player": 1, "parameter": 0, "value": 16384}, dict(seq=255)),
    "PLAYER_FINISHED": ({"player": 1, "handle": 0, "at_time": 9000000}, dict(seq=1, ack=30)),
    "LATE": ({"tag": 5, "ref_type": 32, "late_by": 1500}, dict(seq=2, ack=30)),
    "FAULT": ({"fault": 1, "channel": 255, "at_time": 42}, dict(seq=3, ack=30)),
    "ENGINE_STOPPED": ({"reason": 2, "at_time": 43}, dict(seq=4, ack=30)),
    "LOG": ({"level": 1, "text": "boot ok — 16 KB free"}, dict(seq=5, ack=30)),
    "RESULT": ({"tag": 5, "status": 0}, dict(seq=6, ack=30)),
    "UPLOAD_STATUS": ({"tag": 2, "status": 0, "handle": 0, "next_offset": 1024}, dict(seq=7, ack=30)),
    "SLOT_LIST_REPLY": ({"tag": 21, "status": 0, "boot_slot": 255,
                         "slots": [{"slot": 0, "used": True, "size": 812, "hash": 0x01020304}, {"slot": 1, "used": False, "size": 0, "hash": 0}]}, dict(seq=8, ack=30)),
    "SLOT_DATA": ({"tag": 22, "status": 0, "slot": 3, "offset": 1024, "data": "54484d4c00"}, dict(seq=9, ack=30)),
    "TRACE_DATA": ({"tag": 26, "status": 0, "channel": 0, "from_time": 1000000, "tick": 1000, "samples": "0000ff3f00c0"}, dict(seq=10, ack=30)),
    "CALIBRATION_RESULT": ({"tag": 19, "status": 0, "channel": 1, "resonant_dhz": 1712, "impedance_mohm": 24500}, dict(seq=11, ack=30)),
    "PLAYER_CHANNELS": ({"tag": 27, "player": 1, "at_time": 2500000, "channels": [{"channel": 2}, {"channel": 0}, {"channel": 3}]}, dict(seq=27)),
    "CLOCK_TRIM": ({"tag": 28, "rate_ppb": -40125}, dict(seq=28)),
    "CHANNEL_READ": ({"tag": 29, "channel": 1}, dict(seq=29)),
    "CHANNEL_REPLY": ({"tag": 29, "status": 0, "channel": 1, "name": "thumb"}, dict(seq=12, ack=30)),
}
assert set(samples) == set(by_name), set(by_name) ^ set(samples)
message_cases = []
for m in spec["messages"]:
    values, header = samples[m["name"]]
    data, fj = message_frame(m["name"], values, **header)
    message_cases.append(case("msg-" + m["name"].lower().replace("_", "-"),
                              "one %s frame on the %s channel" % (m["name"], fj["channel"]), data, [fj]))
write("messages.json", "One valid frame for every message type in Protocol/messages.json.", message_cases)

# ---------------------------------------------------------------- framing
ping_vals = {"id": 1, "host_time": 1000, "reserved0": 0, "reserved1": 0}
ping, ping_j = message_frame("PING", ping_vals, epoch=7)
ack, ack_j = message_frame("ACK", {}, epoch=7, ack=3, window=2)
nak, nak_j = message_frame("ACK", {}, epoch=7, ack=3, window=2, nak=True)
cobs_ping = ping[1:-1]
frames = []
frames.append(case("frame-ping", "a PING frame with both delimiters", ping, [ping_j]))
frames.append(case("frame-no-leading-delimiter", "the leading delimiter is optional", ping[1:], [ping_j]))
frames.append(case("frame-nak", "an ACK frame with the NAK flag", nak, [nak_j]))
frames.append(case("frames-back-to-back", "two frames; the 00 00 between them is an empty piece, not an error", ping + ack, [ping_j, ack_j]))
frames.append(case("idle-delimiters", "delimiters only: idle fill, nothing decoded, nothing rejected", bytes(5)))
frames.append(case("frames-junk-before", "junk without a delimiter before a frame is discarded at the frame's leading delimiter",
                   bytes([0x13, 0x37, 0xFF, 0x42]) + ping, [ping_j], ["cobs_invalid"]))
frames.append(case("frames-junk-between", "junk between two frames is discarded, both frames survive",
                   ping + bytes([0x0D]) + bytes(range(1, 13)) + ack, [ping_j, ack_j], ["crc_mismatch"]))
frames.append(case("frames-junk-with-zeros", "junk containing zeros forms several rejected pieces",
                   bytes([0x05, 0x01, 0x00, 0x02, 0x11, 0x00, 0x09]) + ping, [ping_j], ["cobs_invalid", "too_short", "cobs_invalid"]))
bad = bytearray(cobs_ping); bad[-1] ^= 0x01
frames.append(case("frame-crc-corrupt", "last CRC byte flipped", b"\x00" + bytes(bad) + b"\x00", [], ["crc_mismatch"]))
bad = bytearray(cobs_ping); bad[1] ^= 0x40
frames.append(case("frame-payload-corrupt", "the version byte flipped: caught by the CRC, which is checked first", b"\x00" + bytes(bad) + b"\x00", [], ["crc_mismatch"]))
frames.append(case("frame-corrupt-then-good", "a corrupted frame does not harm the next one",
                   b"\x00" + bytes(bad) + b"\x00" + ack, [ack_j], ["crc_mismatch"]))
plain_ping = plain_frame("control", 7, 0, 0, 8, 3, encode_fields(by_name["PING"]["fields"], ping_vals))
frames.append(case("frame-truncated", "the last 6 bytes of a PING lost before its delimiter (re-encoded so COBS is intact)",
                   b"\x00" + cobs(plain_ping[:-6]) + b"\x00", [], ["crc_mismatch"]))
frames.append(case("frame-truncated-no-delimiter", "a frame whose end has not arrived yields nothing yet", b"\x00" + cobs_ping[:9]))
frames.append(case("frame-truncated-cobs", "cut inside a COBS block: the code byte overruns", b"\x00" + cobs_ping[:9] + b"\x00", [], ["cobs_invalid"]))
frames.append(case("frame-zero-length", "a COBS-encoded empty frame (decodes to 0 bytes)", b"\x00\x01\x00", [], ["too_short"]))
frames.append(case("frame-header-only", "11 decoded bytes: one short of header plus CRC", b"\x00" + cobs(bytes([1, 0, 7, 0, 0, 0, 0, 3, 1, 2, 3])) + b"\x00", [], ["too_short"]))
frames.append(case("frame-bad-version", "format version 2 with a valid CRC",
                   wire(plain_frame("control", 7, 0, 0, 8, 3, encode_fields(by_name["PING"]["fields"], ping_vals), version=2)), [], ["bad_version"]))
frames.append(case("frame-bad-channel", "channel 3 with a valid CRC",
                   wire(plain_frame("control", 7, 0, 0, 8, 0, b"", flags=3)), [], ["bad_channel"]))
frames.append(case("frame-bad-flags", "reserved flag bit 7 set with a valid CRC",
                   wire(plain_frame("control", 7, 0, 0, 8, 0, b"", flags=0x80)), [], ["bad_flags"]))
chunk_vals = {"tag": 1, "handle": 0, "offset": 0, "data": bytes(range(1, 256)).hex() + "01" * 250}
big, big_j = message_frame("UPLOAD_CHUNK", chunk_vals, epoch=7, seq=1)
frames.append(case("frame-max-payload", "a 512-byte payload (no zeros in the data: worst-case COBS) at max_payload 512", big, [big_j], max_payload=512))
frames.append(case("frame-oversize-payload", "the same frame when the decoder allows only 511 payload bytes", big, [], ["oversize"], max_payload=511))
frames.append(case("frame-oversize-stream", "2000 non-zero bytes with no delimiter, then a good frame",
                   b"\x00" + bytes([0x7F]) * 2000 + ping, [ping_j], ["oversize"], max_payload=128))
block = {"tag": 0x0101, "handle": 1, "offset": 0x01010101, "data": "01" * (254 - 15)}
b254, b254_j = message_frame("UPLOAD_CHUNK", block, epoch=0x0101, seq=1, ack=1, window=1)
frames.append(case("frame-cobs-254", "a frame of exactly 254 non-zero bytes before the CRC: a full COBS block", b254, [b254_j]))
frames.append(case("frame-all-zero-payload", "a payload of zeros: every byte becomes a COBS code",
                   *message_frame("UPLOAD_CHUNK", {"tag": 0, "handle": 0, "offset": 0, "data": "00" * 40}, epoch=0, seq=0, ack=0, window=0)[0:1],
                   [message_frame("UPLOAD_CHUNK", {"tag": 0, "handle": 0, "offset": 0, "data": "00" * 40}, epoch=0, seq=0, ack=0, window=0)[1]]))
write("frames.json", "Framing: delimiters, resynchronisation, CRC, truncation, size limits, header checks.", frames)

# ---------------------------------------------------------------- payloads (frame fine, message not)
def raw_frame(type_id, payload, channel="reliable", epoch=7, seq=1):
    return wire(plain_frame(channel, epoch, seq, 0, 8, type_id, payload))

pings = encode_fields(by_name["PING"]["fields"], ping_vals)
bad_payloads = [
    case("payload-unknown-type", "message type 0xEE is not in messages.json", raw_frame(0xEE, b"\x01\x02"), [], ["unknown_type"]),
    case("payload-unknown-type-7", "type 7 is unassigned", raw_frame(7, b"", channel="control"), [], ["unknown_type"]),
    case("payload-truncated", "PING with its last byte missing", raw_frame(3, pings[:-1], channel="control"), [], ["truncated"]),
    case("payload-empty-for-fields", "PLAYER_STOP with no payload", raw_frame(33, b""), [], ["truncated"]),
    case("payload-trailing", "RESULT with one byte too many", raw_frame(128, b"\x05\x00\x00\x09"), [], ["trailing_bytes"]),
    case("payload-bad-bool", "PLAYER_MUTE with muted = 2", raw_frame(39, b"\x01\x00\x00\x02"), [], ["invalid_bool"]),
    case("payload-string-too-long", "LOG text length 201 > max 200", raw_frame(116, b"\x01\xC9" + b"a" * 201), [], ["string_too_long"]),
    case("payload-string-overruns", "ERROR detail claims 50 bytes, 3 present", raw_frame(5, b"\x0D\x00\x00\x32abc", channel="control"), [], ["truncated"]),
    case("payload-invalid-utf8", "LOG text is not UTF-8", raw_frame(116, b"\x01\x02\xC3\x28"), [], ["invalid_utf8"]),
    case("payload-list-too-long", "PLAYER_CURVE with 65 points > max 64",
         raw_frame(42, b"\x01\x00\x00\x00" + le(0, 4) + bytes([65]) + b"\x00" * (65 * 6)), [], ["list_too_long"]),
    case("payload-list-overruns", "STREAM_SAMPLES claims 10 samples, 2 present",
         raw_frame(96, b"\x00" + le(0, 4) + le(1000, 2) + bytes([10]) + b"\x10\x10\x20\x20", channel="realtime"), [], ["truncated"]),
]
write("payloads.json", "Frames that check out but whose payload does not match its message type.", bad_payloads)
