/// Streaming frame decoder (PROTOCOL.md §2.5). Feed it bytes in any split: whole, one at a time or in random
/// chunks, the output is the same. It never throws on garbage: a piece that does not check out is reported
/// as a rejection and counted, and the next delimiter starts afresh. Memory is bounded by the largest frame.
public struct FrameDecoder: Sendable {
    public enum Output: Equatable, Sendable {
        case frame(Frame)
        case rejected(FrameRejection)
    }

    public struct Statistics: Equatable, Sendable {
        public var frames = 0
        public var rejected: [FrameRejection: Int] = [:]
        /// Bytes of rejected pieces, delimiters excluded.
        public var discardedBytes = 0
        /// Delimiters with nothing before them (idle fill, back-to-back delimiters); not errors.
        public var emptyPieces = 0

        public var rejectedTotal: Int { rejected.values.reduce(0, +) }
    }

    /// Largest payload accepted; may be changed between frames (after the handshake).
    public var maxPayload: Int {
        didSet { maxPayload = min(max(maxPayload, 0), FrameLimits.absoluteMaxPayload) }
    }
    public private(set) var statistics = Statistics()

    private var buffer: [UInt8] = []
    private var overflowed = false

    public init(maxPayload: Int = FrameLimits.absoluteMaxPayload) {
        self.maxPayload = min(max(maxPayload, 0), FrameLimits.absoluteMaxPayload)
    }

    private var maxEncodedCount: Int { COBS.maxEncodedCount(maxPayload + FrameLimits.overhead) }

    /// Bytes held for an unfinished frame.
    public var pendingCount: Int { buffer.count }

    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            if let output = feed(byte) { outputs.append(output) }
        }
        return outputs
    }

    /// Constant work per byte except at a delimiter, where the piece is decoded once.
    public mutating func feed(_ byte: UInt8) -> Output? {
        if byte != 0 {
            if overflowed {
                statistics.discardedBytes += 1
            } else if buffer.count == maxEncodedCount {
                overflowed = true  // too long already: stop storing, wait for the next delimiter
                statistics.discardedBytes += buffer.count + 1
                buffer.removeAll(keepingCapacity: true)
            } else {
                buffer.append(byte)
            }
            return nil
        }
        defer { buffer.removeAll(keepingCapacity: true) }
        if overflowed {
            overflowed = false
            return reject(.oversize, bytes: 0)
        }
        if buffer.isEmpty {
            statistics.emptyPieces += 1
            return nil
        }
        switch Self.decodePiece(buffer, maxPayload: maxPayload) {
        case .success(let frame):
            statistics.frames += 1
            return .frame(frame)
        case .failure(let reason):
            return reject(reason, bytes: buffer.count)
        }
    }

    private mutating func reject(_ reason: FrameRejection, bytes: Int) -> Output {
        statistics.rejected[reason, default: 0] += 1
        statistics.discardedBytes += bytes
        return .rejected(reason)
    }

    /// Decodes the bytes between two delimiters.
    public static func decodePiece(
        _ encoded: [UInt8], maxPayload: Int = FrameLimits.absoluteMaxPayload
    ) -> Result<Frame, FrameRejection> {
        let plain: [UInt8]
        switch COBS.decode(encoded) {
        case .success(let bytes): plain = bytes
        case .failure: return .failure(.cobsInvalid)
        }
        guard plain.count >= FrameLimits.overhead else { return .failure(.tooShort) }
        guard plain.count - FrameLimits.overhead <= maxPayload else { return .failure(.oversize) }
        let crcStart = plain.count - 4
        let stated =
            UInt32(plain[crcStart]) | UInt32(plain[crcStart + 1]) << 8
            | UInt32(plain[crcStart + 2]) << 16 | UInt32(plain[crcStart + 3]) << 24
        guard CRC32C.checksum(plain[..<crcStart]) == stated else { return .failure(.crcMismatch) }
        return FrameHeader.parse(plain[..<FrameHeader.size]).map { header in
            Frame(header: header, payload: Array(plain[FrameHeader.size..<crcStart]))
        }
    }
}
