"""The wire's framing (PROTOCOL.md), written from the spec: bitwise CRC-32C, COBS both ways, a frame's
header and CRC, its delimiters. One copy for the wire vector generator (wire_vectors.py) and the QEMU
board's smoke test (Firmware-ref/ports/stm32f4/tools/qemu_smoke.py); standard library only."""

CHANNELS = {"control": 0, "reliable": 1, "realtime": 2}


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283


def cobs(data):
    """COBS-encoded `data` (no delimiters)."""
    out, block = bytearray(), bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(0xFF)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data):
    """The bytes COBS-encoded in `data` (no delimiters), else None."""
    out, i = bytearray(), 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            return None
        out += data[i + 1:i + code]
        i += code
        if code < 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def le(value, size, signed=False):
    return value.to_bytes(size, "little", signed=signed)


def plain_frame(channel, epoch, seq, ack, window, type_id, payload, nak=False, version=1, flags=None):
    """A frame before COBS: the 8-byte header (channel by name), the payload, the CRC-32C."""
    if flags is None:
        flags = CHANNELS[channel] | (4 if nak else 0)
    head = bytes([version, flags]) + le(epoch, 2) + bytes([seq, ack, window, type_id])
    body = head + payload
    return body + le(crc32c(body), 4)


def wire(plain):
    """A plain frame as it goes on the line: COBS between two delimiters."""
    return b"\x00" + cobs(plain) + b"\x00"
