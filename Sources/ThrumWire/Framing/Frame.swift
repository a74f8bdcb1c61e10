/// One decoded frame: header and payload, CRC checked.
public struct Frame: Equatable, Sendable {
    public var header: FrameHeader
    public var payload: [UInt8]

    public init(header: FrameHeader, payload: [UInt8]) {
        self.header = header
        self.payload = payload
    }
}

/// Size limits of frames (PROTOCOL.md §2.4).
public enum FrameLimits {
    /// Bytes of header plus CRC around the payload.
    public static let overhead = FrameHeader.size + 4
    /// No implementation may state a larger payload limit than this.
    public static let absoluteMaxPayload = 1024
    /// Every implementation accepts payloads at least this large (so HELLO and the largest INFO, 190 bytes, fit).
    public static let minimumMaxPayload = 256

    /// Bytes on the wire for a payload of `payloadCount` bytes, both delimiters included (worst case).
    public static func maxWireCount(payload payloadCount: Int) -> Int {
        COBS.maxEncodedCount(payloadCount + overhead) + 2
    }
}

/// Why a piece of the byte stream between two delimiters was discarded. Raw values are the reason names
/// used by the vectors (Protocol/vectors/wire) and by the C implementation.
public enum FrameRejection: String, Error, Sendable, CaseIterable {
    /// More encoded bytes than the largest frame allowed before a delimiter arrived.
    case oversize
    /// A COBS code byte points past the end of the piece.
    case cobsInvalid = "cobs_invalid"
    /// Fewer than 12 decoded bytes: no room for header and CRC.
    case tooShort = "too_short"
    /// The CRC-32C does not match.
    case crcMismatch = "crc_mismatch"
    /// Frame format version is not 1.
    case badVersion = "bad_version"
    /// Reserved flag bits are set.
    case badFlags = "bad_flags"
    /// Channel number 3.
    case badChannel = "bad_channel"
}

/// Turns frames into wire bytes: `00 COBS(header payload crc32c) 00` (PROTOCOL.md §2).
public enum FrameEncoder {
    public static func encode(header: FrameHeader, payload: some Collection<UInt8>) -> [UInt8] {
        var plain: [UInt8] = []
        plain.reserveCapacity(payload.count + FrameLimits.overhead)
        header.append(to: &plain)
        plain.append(contentsOf: payload)
        let crc = CRC32C.checksum(plain)
        for shift in stride(from: 0, to: 32, by: 8) { plain.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        var wire: [UInt8] = [0]
        wire.append(contentsOf: COBS.encode(plain))
        wire.append(0)
        return wire
    }

    public static func encode(_ frame: Frame) -> [UInt8] { encode(header: frame.header, payload: frame.payload) }
}
