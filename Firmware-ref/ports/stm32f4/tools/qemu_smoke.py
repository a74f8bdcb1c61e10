#!/usr/bin/env python3
"""Smoke test of the Thrum QEMU image (python3 standard library only).

Starts qemu-system-arm (netduinoplus2) paused, finds USART2's pseudo-terminal through QMP
(query-chardev, label serial1), opens it raw, lets the guest run, then:
  1. sends HELLO (PROTOCOL.md: COBS frame, 8-byte header, CRC-32C) and expects INFO with its nonce;
  2. sends PING and expects PONG with its id and host_time;
  3. streams samples (STREAM_SAMPLES, realtime) and expects the DRV2605L driver's RTP writes
     (`i2c 5a 02 VV`, VV not 0) in USART1's log;
  4. expects USART1's `clock hsi-fallback` line: QEMU has no RCC, so the port's HSE wait runs out
     and it falls back to HSI and says so (clock.c);
  5. with --watchdog: sends the QEMU stall text, expects QEMU to report a guest reset (the software
     watchdog), and a new HELLO to be answered in a different epoch.
  6. with --mux N (an image built THRUM_CHANNELS=N THRUM_MUX=1): INFO lists N channels and a
     tick_hz of 1000 (500 beyond six channels: the I2C budget), every
     port's chip got its own DEV_RESET behind its mux select (`i2c 70 VV`), and samples streamed
     to each channel reach RTP_INPUT behind that channel's port, and no other.
USART1 (the I2C trace, `tick max` lines) goes to a file (--act-log). Every wait has a timeout and
QEMU is always killed. Exit status 0 on success.

Usage: qemu_smoke.py [--qemu qemu-system-arm] [--watchdog] [--mux N] [--act-log FILE] build/thrum-qemu.elf
"""
import argparse
import json
import os
import random
import select
import socket
import struct
import subprocess
import sys
import tempfile
import time
import tty

# The wire's framing, shared with the wire vector generator.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "scripts", "generate"))
from wire_frame import cobs_decode, crc32c, plain_frame, wire  # noqa: E402

MSG_HELLO, MSG_INFO, MSG_PING, MSG_PONG, MSG_STREAM_SAMPLES = 1, 2, 3, 4, 96
PROTOCOL_MAJOR, PROTOCOL_MINOR = 1, 0
STALL_TEXT = b"THRUM-QEMU-STALL"  # ports/stm32f4/usart2.c


def frame(message_type, payload, epoch=0, window=8, channel="control", seq=0):
    """A frame (control channel unless told, ack 0) with its delimiters."""
    return wire(plain_frame(channel, epoch, seq, 0, window, message_type, payload))


def parse_frame(piece):
    """(epoch, type, payload) of a valid frame, else None."""
    body = cobs_decode(piece)
    if body is None or len(body) < 12:
        return None
    if struct.unpack("<I", body[-4:])[0] != crc32c(body[:-4]) or body[0] != 1:
        return None
    return struct.unpack("<H", body[2:4])[0], body[7], body[8:-4]


class Board:
    def __init__(self, qemu, elf, act_log, timeout):
        self.directory = tempfile.mkdtemp(prefix="thrum-qemu-")
        self.qmp_path = os.path.join(self.directory, "qmp.sock")
        self.deadline = time.monotonic() + timeout
        self.events = []
        self.pending = bytearray()
        self.process = subprocess.Popen(
            [qemu, "-M", "netduinoplus2", "-display", "none", "-monitor", "none", "-kernel", elf,
             "-serial", "file:" + act_log, "-serial", "pty", "-S",
             "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while not os.path.exists(self.qmp_path):
            self.check_time("QEMU's QMP socket")
            if self.process.poll() is not None:
                raise RuntimeError("QEMU exited: " + self.process.stderr.read().decode(errors="replace"))
            time.sleep(0.02)
        self.qmp = socket.socket(socket.AF_UNIX)
        self.qmp.connect(self.qmp_path)
        self.qmp.settimeout(5)
        self.qmp_file = self.qmp.makefile("rw")
        json.loads(self.qmp_file.readline())  # greeting
        self.command("qmp_capabilities")
        pty = next(c["filename"][4:] for c in self.command("query-chardev") if c["label"] == "serial1")
        # Opened before the guest runs: what it writes before the open would be lost.
        self.fd = os.open(pty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd)
        self.command("cont")

    def check_time(self, what):
        if time.monotonic() > self.deadline:
            raise TimeoutError("timed out waiting for " + what)

    def command(self, name, **arguments):
        request = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.qmp_file.write(json.dumps(request) + "\n")
        self.qmp_file.flush()
        while True:
            reply = json.loads(self.qmp_file.readline())
            if "event" in reply:
                self.events.append(reply["event"])
            elif "error" in reply:
                raise RuntimeError("QMP %s: %s" % (name, reply["error"]))
            elif "return" in reply:
                return reply["return"]

    def send(self, data):
        os.write(self.fd, data)

    def receive(self, wanted, within):
        """The first frame whose type is in `wanted`, within `within` seconds (else TimeoutError)."""
        limit = min(self.deadline, time.monotonic() + within)
        while True:
            while b"\x00" in self.pending:
                piece, _, rest = bytes(self.pending).partition(b"\x00")
                self.pending = bytearray(rest)
                parsed = parse_frame(piece) if piece else None
                if parsed and parsed[1] in wanted:
                    return parsed
            left = limit - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame of type %s within %.1f s" % (sorted(wanted), within))
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.pending += os.read(self.fd, 4096)
                except BlockingIOError:
                    pass

    def wait_event(self, name, within):
        """Waits for a QMP event (e.g. RESET) without a command."""
        limit = time.monotonic() + within
        self.qmp.setblocking(False)
        try:
            while name not in self.events:
                left = limit - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no QMP event %s within %.1f s" % (name, within))
                ready, _, _ = select.select([self.qmp], [], [], left)
                if ready:
                    line = self.qmp_file.readline()
                    if line:
                        reply = json.loads(line)
                        if "event" in reply:
                            self.events.append(reply["event"])
        finally:
            self.qmp.setblocking(True)
            self.qmp.settimeout(5)

    def close(self):
        try:
            os.close(self.fd)
        except (OSError, AttributeError):
            pass
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(5)


def read_text(payload, at):
    n = payload[at]
    return payload[at + 1:at + 1 + n].decode(), at + 1 + n


def handshake(board, within=5.0):
    """HELLO until INFO with its nonce comes back (repeated every 250 ms, as a host does); INFO's epoch."""
    nonce = random.getrandbits(32)
    hello = frame(MSG_HELLO, struct.pack("<BBHBI", PROTOCOL_MAJOR, PROTOCOL_MINOR, 256, 8, nonce))
    limit = time.monotonic() + within
    while True:
        board.send(hello)
        try:
            epoch, _, payload = board.receive({MSG_INFO}, 0.25)
        except TimeoutError:
            if time.monotonic() > limit:
                raise
            continue
        if struct.unpack("<I", payload[:4])[0] == nonce:
            break
    major, minor = payload[4], payload[5]
    firmware, at = read_text(payload, 6)
    name, at = read_text(payload, at)
    serial, at = read_text(payload, at)
    print("INFO: epoch %d, message set %d.%d, firmware %r, board %r, serial %r" %
          (epoch, major, minor, firmware, name, serial))
    if major != PROTOCOL_MAJOR:
        raise RuntimeError("INFO states message set %d.%d" % (major, minor))
    board.tick_hz = struct.unpack("<I", payload[at + 3:at + 7])[0]  # after max_payload and window
    board.channels = payload[at + 28]  # after max_payload .. stream_max_samples: the channels' count
    return epoch


def ping(board, epoch):
    ping_id, host_time = random.getrandbits(16), random.getrandbits(32)
    board.send(frame(MSG_PING, struct.pack("<HIII", ping_id, host_time, 0, 0), epoch=epoch))
    _, _, payload = board.receive({MSG_PONG}, 2.0)
    got_id, got_host_time, rx_time, tx_time = struct.unpack("<HIII", payload)
    if (got_id, got_host_time) != (ping_id, host_time):
        raise RuntimeError("PONG answers another PING")
    print("PONG: board time rx %d us, tx %d us" % (rx_time, tx_time))
    return tx_time


def chip_writes(act_log, start=0):
    """The DRV2605L writes of the trace from byte `start` on as (mux control before them or None,
    register, value)."""
    control, writes = None, []
    with open(act_log, "rb") as log:
        log.seek(start)
        for line in log.read().decode(errors="replace").splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[0] == "i2c" and fields[1] == "70":
                control = int(fields[2], 16)
            elif len(fields) == 4 and fields[:2] == ["i2c", "5a"]:
                writes.append((control, int(fields[2], 16), int(fields[3], 16)))
    return writes


def stream(board, epoch, board_time, act_log, channel=0, port_control=None, start=0):
    """28 samples at full amplitude, one a millisecond, from 50 ms after the PONG's board time (a
    board time, as a host's clock sync gives it; at_time 0 would mean "now"): the driver writes
    RTP_INPUT (behind the mux select `port_control` when given). Realtime frames are never repeated
    by the link, and QEMU's pty has been seen to lose one: up to three tries, each a new seq."""
    samples = bytes([255, 128] * 28)
    for attempt in range(3):
        if attempt:
            board_time = ping(board, epoch)
        board.rt_seq = getattr(board, "rt_seq", 0) + 1
        payload = struct.pack("<BIHB", channel, (board_time + 50000) & 0xFFFFFFFF, 1000, 28) + samples
        board.send(frame(MSG_STREAM_SAMPLES, payload, epoch=epoch, channel="realtime", seq=board.rt_seq))
        limit = time.monotonic() + 1.0
        while time.monotonic() < limit:
            levels = [(control, value) for control, register, value in chip_writes(act_log, start) if register == 0x02]
            sounding = [control for control, value in levels if value != 0]
            if sounding and port_control is None:
                print("stream: %d RTP writes in the I2C trace, peak %02x" % (len(levels), max(v for _, v in levels)))
                return
            if sounding and set(sounding) == {port_control}:
                print("stream to channel %d: RTP levels behind mux select %02x only" % (channel, port_control))
                return
            if sounding:
                raise RuntimeError("channel %d's levels went behind mux selects %s" % (channel, sorted(set(sounding))))
            time.sleep(0.05)
    raise RuntimeError("no RTP level in %s after STREAM_SAMPLES (three tries)" % act_log)


def mux_channels(board, epoch, act_log, count):
    """INFO's channels; each port's chip reset behind its own select; a stream per channel on its port."""
    if board.channels != count:
        raise RuntimeError("INFO lists %d channels, expected %d" % (board.channels, count))
    # six level changes fit a 1 ms tick on the 400 kHz bus (drivers/tca9548a/README.md): more, a 2 ms tick
    if board.tick_hz != (1000 if count <= 6 else 500):
        raise RuntimeError("INFO's tick_hz is %d with %d channels behind the mux" % (board.tick_hz, count))
    resets = {control for control, register, value in chip_writes(act_log) if (register, value) == (0x01, 0x80)}
    if resets != {1 << port for port in range(count)}:
        raise RuntimeError("DEV_RESET behind mux selects %s, expected one per port 0-%d" % (sorted(resets), count - 1))
    print("mux: %d channels and tick_hz %d in INFO, a DEV_RESET behind each port's select" % (count, board.tick_hz))
    for channel in range(count):
        time.sleep(0.2)  # the stream before fades out (keep-alive) and its last writes are in the log
        start = os.path.getsize(act_log)  # from here on: this channel's writes only
        stream(board, epoch, ping(board, epoch), act_log, channel, 1 << channel, start)


def clock_line(act_log):
    """The clock the port reports at boot: under QEMU the HSI fallback (HSE never becomes ready)."""
    with open(act_log) as log:
        clocks = [line.strip() for line in log if line.startswith("clock ")]
    if clocks[:1] != ["clock hsi-fallback"]:
        raise RuntimeError("expected 'clock hsi-fallback' in %s, found %s" % (act_log, clocks))
    print("clock: %s" % clocks[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("elf")
    parser.add_argument("--qemu", default="qemu-system-arm")
    parser.add_argument("--act-log", default=None, help="file for USART1 (default: beside the image)")
    parser.add_argument("--watchdog", action="store_true", help="also force a watchdog reset")
    parser.add_argument("--mux", type=int, default=0, help="the image's channels behind a TCA9548A")
    parser.add_argument("--timeout", type=float, default=30.0)
    options = parser.parse_args()
    act_log = options.act_log or os.path.join(os.path.dirname(os.path.abspath(options.elf)), "act.log")
    board = Board(options.qemu, options.elf, act_log, options.timeout)
    try:
        epoch = handshake(board)
        board_time = ping(board, epoch)
        clock_line(act_log)
        if options.mux:
            mux_channels(board, epoch, act_log, options.mux)
        else:
            stream(board, epoch, board_time, act_log)
        if options.watchdog:
            board.send(STALL_TEXT)
            board.wait_event("RESET", 5.0)
            new_epoch = handshake(board)
            if new_epoch == epoch:
                raise RuntimeError("the board kept epoch %d across the reset" % epoch)
            print("watchdog: reset reported by QEMU, epoch %d -> %d" % (epoch, new_epoch))
            ping(board, new_epoch)
    except (RuntimeError, TimeoutError, OSError) as error:
        print("qemu_smoke: FAIL:", error, file=sys.stderr)
        return 1
    finally:
        board.close()
    print("qemu_smoke: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
