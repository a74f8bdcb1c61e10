/// The three logical channels multiplexed on one line (PROTOCOL.md §3).
public enum Channel: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Unsequenced link management: ACK, HELLO/INFO, PING/PONG, ERROR.
    case control = 0
    /// Sequenced, acknowledged, retransmitted, in order.
    case reliable = 1
    /// Sequenced, never retransmitted, newest wins.
    case realtime = 2

    public var description: String {
        switch self {
        case .control: "control"
        case .reliable: "reliable"
        case .realtime: "realtime"
        }
    }
}

/// The fixed 8-byte little-endian frame header (PROTOCOL.md §2.1).
public struct FrameHeader: Equatable, Hashable, Sendable {
    public static let size = 8
    /// Frame format version; the message-set version travels in HELLO and INFO.
    public static let formatVersion: UInt8 = 1
    static let nakFlag: UInt8 = 0x04
    static let channelMask: UInt8 = 0x03

    public var channel: Channel
    /// Set on an acknowledgement that also asks for everything after `ack` again.
    public var nak: Bool
    /// The board's session epoch (the host echoes the one it knows; 0 in HELLO).
    public var epoch: UInt16
    public var seq: UInt8
    /// Sender's cumulative acknowledgement of the peer's reliable frames.
    public var ack: UInt8
    /// Sender's credit: reliable frames it accepts after `ack`.
    public var window: UInt8
    public var type: UInt8

    public init(
        channel: Channel, nak: Bool = false, epoch: UInt16, seq: UInt8 = 0, ack: UInt8 = 0, window: UInt8 = 0,
        type: UInt8
    ) {
        self.channel = channel
        self.nak = nak
        self.epoch = epoch
        self.seq = seq
        self.ack = ack
        self.window = window
        self.type = type
    }

    public func append(to out: inout [UInt8]) {
        out.append(Self.formatVersion)
        out.append(channel.rawValue | (nak ? Self.nakFlag : 0))
        out.append(UInt8(truncatingIfNeeded: epoch))
        out.append(UInt8(truncatingIfNeeded: epoch >> 8))
        out.append(seq)
        out.append(ack)
        out.append(window)
        out.append(type)
    }

    /// Parses the first 8 bytes; the caller has checked there are at least 8.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<FrameHeader, FrameRejection> {
        let base = bytes.startIndex
        guard bytes[base] == formatVersion else { return .failure(.badVersion) }
        let flags = bytes[base + 1]
        guard flags & ~(channelMask | nakFlag) == 0 else { return .failure(.badFlags) }
        guard let channel = Channel(rawValue: flags & channelMask) else { return .failure(.badChannel) }
        let epoch = UInt16(bytes[base + 2]) | UInt16(bytes[base + 3]) << 8
        return .success(
            FrameHeader(
                channel: channel, nak: flags & nakFlag != 0, epoch: epoch,
                seq: bytes[base + 4], ack: bytes[base + 5], window: bytes[base + 6], type: bytes[base + 7]))
    }
}
