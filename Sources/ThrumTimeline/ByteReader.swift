/// A bounds-checked cursor over untrusted bytes: every read checks the remaining length first
/// and reports the offset where it failed.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    /// Reads stop here (the end of the current section).
    var limit: Int

    init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
        self.limit = bytes.count
    }

    var remaining: Int { limit - position }
    var isAtLimit: Bool { position >= limit }

    mutating func byte(_ what: @autoclosure () -> String) throws(TimelineDecodeError) -> UInt8 {
        guard position < limit else { throw TimelineDecodeError(.truncated, at: position, "ends inside \(what())") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func uint32(_ what: @autoclosure () -> String) throws(TimelineDecodeError) -> UInt32 {
        guard remaining >= 4 else { throw TimelineDecodeError(.truncated, at: position, "ends inside \(what())") }
        defer { position += 4 }
        return UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8
            | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
    }

    /// Unsigned LEB128: at most five bytes, value within 32 bits, shortest form only.
    mutating func varint(_ what: @autoclosure () -> String) throws(TimelineDecodeError) -> UInt32 {
        let start = position
        var value: UInt32 = 0
        for index in 0..<5 {
            guard position < limit else { throw TimelineDecodeError(.truncated, at: position, "ends inside \(what())") }
            let byte = bytes[position]
            position += 1
            if index == 4 && byte > 0x0F {
                throw TimelineDecodeError(.badVarint, at: start, "\(what()) does not fit in 32 bits")
            }
            value |= UInt32(byte & 0x7F) << (7 * UInt32(index))
            if byte & 0x80 == 0 {
                if index > 0 && byte == 0 {
                    throw TimelineDecodeError(.badVarint, at: start, "\(what()) is not in its shortest form")
                }
                return value
            }
        }
        throw TimelineDecodeError(.badVarint, at: start, "\(what()) is longer than five bytes")
    }

    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws(TimelineDecodeError) -> ArraySlice<UInt8>
    {
        guard count <= remaining else { throw TimelineDecodeError(.truncated, at: position, "ends inside \(what())") }
        defer { position += count }
        return bytes[position..<(position + count)]
    }
}
