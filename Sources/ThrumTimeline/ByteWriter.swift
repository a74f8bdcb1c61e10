/// An append-only byte buffer with the format's primitive encodings.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// Unsigned LEB128, canonical (shortest form), at most five bytes for a 32-bit value.
    mutating func varint(_ value: UInt32) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func uint32(_ value: UInt32) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8((value >> 8) & 0xFF))
        bytes.append(UInt8((value >> 16) & 0xFF))
        bytes.append(UInt8(value >> 24))
    }

    mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
}
