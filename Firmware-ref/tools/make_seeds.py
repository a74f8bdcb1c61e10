#!/usr/bin/env python3
"""Writes fuzzer seed files from the shared vectors: wire vectors become link scripts (op 0: raw
bytes), valid and invalid timelines become timeline inputs (4 setting bytes + the timeline).
Usage: make_seeds.py PROTOCOL_DIR OUT_DIR"""
import json
import struct
import sys
from pathlib import Path


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def frame(channel, type_, payload):
    """A link-fuzzer op 1: a well-formed frame; seq 0 = the one the board expects."""
    return bytes([1, channel, 0, type_, len(payload)]) + payload


def session_script(timeline):
    le = lambda fmt, *v: struct.pack("<" + fmt, *v)
    ops = [
        frame(1, 16, le("HII", 1, len(timeline), crc32c(timeline))),
        frame(1, 17, le("HBI", 2, 0, 0) + timeline),
        frame(1, 18, le("HB", 3, 0)),
        frame(1, 37, le("HBBI", 4, 0, 1, 0)),
        frame(1, 38, le("HBH", 5, 0, 512)),
        frame(1, 32, le("HBBII", 6, 0, 0, 0, 0)),
        frame(1, 41, le("HBBhI", 7, 0, 0, 8000, 0)),
        frame(1, 42, le("HBBIB", 8, 0, 1, 0, 2) + le("Ih", 0, -4000) + le("Ih", 50000, 9000)),
        bytes([2, 120]),
        frame(1, 64, le("HBB", 9, 0, 1)),
        frame(1, 65, le("H", 10)),
        frame(1, 66, le("HBIH", 11, 1, 0, 40)),
        frame(1, 68, le("HBBI", 12, 1, 1, 0)),
        frame(1, 69, le("HBBB", 13, 1, 0, 0)),
        frame(2, 96, le("BIHB", 0, 0, 1000, 3) + bytes([200, 10, 100, 20, 50, 30])),
        frame(2, 97, le("BBh", 0, 0, 4000)),
        frame(0, 3, le("HIII", 1, 1000, 0, 0)),
        bytes([2, 250]),
        frame(1, 34, le("HBI", 14, 0, 0)),
        frame(1, 35, le("HBI", 15, 0, 0)),
        frame(1, 36, le("HBII", 16, 0, 1000, 0)),
        frame(1, 39, le("HBB", 17, 0, 1)),
        frame(1, 33, le("HBI", 18, 0, 0)),
        frame(1, 40, le("HB", 19, 1)),
        frame(1, 50, le("HBBHHH", 20, 0, 0, 1750, 1800, 2900)),
        frame(1, 51, le("HB", 21, 0)),
        frame(1, 80, le("HBIH", 22, 0, 0, 10)),
        frame(1, 67, le("HB", 23, 1)),
        frame(1, 19, le("HB", 24, 0)),
        frame(1, 49, le("H", 25)),
        frame(1, 48, le("H", 26)),
        # message set 1.2: a player's channels (now, then a later change), the channel pan as a step and
        # as a curve, a pan over the realtime channel, a clock trim, a channel's name
        frame(1, 32, le("HBBII", 27, 1, 0, 0, 0)),
        frame(1, 43, le("HBIB", 28, 1, 0, 2) + bytes([1, 0])),
        frame(1, 43, le("HBIB", 29, 1, 300000, 0)),
        frame(1, 41, le("HBBhI", 30, 1, 11, 4096, 0)),
        frame(1, 42, le("HBBIB", 31, 1, 11, 0, 2) + le("Ih", 0, 0) + le("Ih", 200000, 16384)),
        frame(2, 97, le("BBh", 1, 11, 12000)),
        frame(1, 52, le("Hi", 32, -40125)),
        frame(1, 53, le("HB", 33, 0)),
        frame(1, 53, le("HB", 34, 7)),
        bytes([2, 255, 2, 255, 2, 255]),
    ]
    return b"".join(ops)


def main():
    protocol, out = Path(sys.argv[1]), Path(sys.argv[2])
    link, timeline = out / "fuzz_link", out / "fuzz_timeline"
    link.mkdir(parents=True, exist_ok=True)
    timeline.mkdir(parents=True, exist_ok=True)
    for name in ("frames.json", "messages.json", "payloads.json"):
        for case in json.loads((protocol / "vectors/wire" / name).read_text())["cases"]:
            data = bytes.fromhex(case["hex"])
            script = bytearray()
            for start in range(0, len(data), 255):
                piece = data[start:start + 255]
                script += bytes([0, len(piece)]) + piece
            (link / case["id"]).write_bytes(bytes(script))
    for name in ("valid.json", "invalid.json"):
        for number, case in enumerate(json.loads((protocol / "vectors/timeline" / name).read_text())["cases"]):
            data = bytes.fromhex(case["bytes"].replace(" ", ""))
            (timeline / ("%s-%d" % (name[:-5], number))).write_bytes(bytes([16, 0, 3, 6]) + data)
            if name == "valid.json" and len(data) < 200:
                (link / ("session-%d" % number)).write_bytes(session_script(data))


if __name__ == "__main__":
    main()
