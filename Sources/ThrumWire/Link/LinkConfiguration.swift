/// Settings of one end of the link. Defaults suit the host over USB CDC or a UART up to 1 Mbaud.
public struct LinkConfiguration: Sendable {
    public enum Role: Sendable {
        /// Starts sessions with HELLO, follows the board's epoch, runs clock synchronisation.
        case host
        /// Owns the epoch and answers HELLO with `info` (its nonce filled in). Only for test peers and
        /// simulations of the link: board behaviour itself lives in the C firmware core.
        case board(bootEpoch: UInt16, info: WireMessage.Info)
    }

    public var role: Role
    /// Largest payload this end accepts (stated in HELLO or INFO).
    public var maxPayload = FrameLimits.absoluteMaxPayload
    /// Reliable frames this end accepts after its ack (stated in HELLO or INFO), 1…127.
    public var receiveWindow = 16
    /// Reliable messages waiting to be sent before `send` refuses more.
    public var maxQueuedMessages = 4096
    public var initialRetransmissionTimeout: Duration = .milliseconds(500)
    public var minimumRetransmissionTimeout: Duration = .milliseconds(10)
    public var maximumRetransmissionTimeout: Duration = .seconds(4)
    /// Timer expiries on one frame (the oldest unacknowledged) with the peer silent since it left, before the
    /// link is declared failed: on a dead line, its transmissions. A lossy line whose peer still talks never
    /// fails this way.
    public var maxTransmissions = 25
    public var helloInterval: Duration = .milliseconds(250)
    public var helloAttempts = 40
    /// Host: ping schedule for clock synchronisation and keep-alive.
    public var clockSync = ClockSyncPolicy()
    public var estimator = ClockSyncEstimator.Configuration()
    /// Selective acknowledgement (PROTOCOL.md §6.3, message set 1.1): hold the reliable frames that arrive after
    /// a gap (up to `receiveWindow − 1`), name them in SACK to a peer of message set 1.1 or later, and resend
    /// only the frames a SACK from the peer shows missing. `false` behaves as a peer of message set 1.0 (for
    /// compatibility tests): the HELLO states minor version 0, nothing is held, no SACK is sent and a SACK
    /// received counts as a plain ACK. (A board role states the version its `info` carries.)
    public var selectiveAcknowledgement = true
    /// Seed for HELLO nonces, so sessions replay exactly in tests.
    public var nonceSeed: UInt64 = 0x7468_7275_6D21

    public init(role: Role) { self.role = role }
}

/// When the host pings: a burst right after connecting, then a steady interval (PROTOCOL.md §7.3).
public struct ClockSyncPolicy: Sendable {
    public var burstCount = 8
    public var burstInterval: Duration = .milliseconds(25)
    /// Shortened to the board's keepalive_ms / 3 when that is shorter. Set to nil to stop pinging (then the
    /// board's keep-alive lapses unless something else is sent).
    public var interval: Duration? = .milliseconds(100)

    public init() {}
}
