/// What the link reports to its owner.
public enum LinkEvent: Equatable, Sendable {
    /// Host: the board's INFO arrived in a compatible version. Board role: a HELLO started a session.
    case connected(WireMessage)
    /// The two sides' message-set major versions differ; the link stays closed.
    case versionMismatch(host: ProtocolVersion, board: ProtocolVersion)
    /// A message from the peer, on the channel it came on.
    case received(WireMessage, Channel)
    /// A frame checked out but its payload did not; the peer was sent an ERROR naming it.
    case undecodable(MessageCodecError, Channel)
    /// The board's epoch changed: it reset, or started a session that was not ours. Queued and unacknowledged
    /// reliable messages were discarded (they may or may not have been executed); a new handshake started.
    case peerReset(previousEpoch: UInt16, newEpoch: UInt16, discardedMessages: Int)
    /// The link gave up; nothing more is sent until `connect` is called again.
    case failed(LinkFailure)
}

public struct ProtocolVersion: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var major: UInt8
    public var minor: UInt8

    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    public static let current = ProtocolVersion(major: MessageCatalog.major, minor: MessageCatalog.minor)

    public var description: String { "\(major).\(minor)" }
}

public enum LinkFailure: Equatable, Sendable {
    /// No INFO after the configured number of HELLOs.
    case handshakeTimedOut(attempts: Int)
    /// A reliable frame went unacknowledged through every retransmission.
    case retransmissionLimit(seq: UInt8, transmissions: Int)
}

/// Why `send` refused a message.
public enum LinkError: Error, Equatable, Sendable {
    case notConnected
    case queueFull(limit: Int)
    case encoding(MessageCodecError)
    /// The message travels only from the board to the host (or the other way round).
    case wrongDirection(MessageType)
}
