/// What a board says it can do, from its INFO (PROTOCOL.md §4.1, ARCHITECTURE.md decision 7): the host plans with
/// these numbers and never assumes a limit the board did not state.
public struct BoardCapabilities: Equatable, Sendable {
    public enum ActuatorKind: Equatable, Sendable {
        case lra, erm
        /// A kind this host does not know (a newer board); treated as unavailable.
        case unknown(UInt8)
    }

    public enum AudioOutput: Equatable, Sendable {
        case none, pwmBuzzer, dacSpeaker, simulated
        case unknown(UInt8)

        public var isPresent: Bool { self != .none }
    }

    public struct ActuatorChannel: Equatable, Sendable {
        public var kind: ActuatorKind
        /// Resonant frequency in hertz; nil for ERMs (stated as 0).
        public var resonantFrequency: Double?
        /// Rated drive, RMS, millivolts.
        public var ratedDriveMillivolts: Int
        /// Overdrive clamp, peak, millivolts.
        public var maximumDriveMillivolts: Int
    }

    public var version: ProtocolVersion
    public var firmware: String
    public var boardName: String
    public var serialNumber: String
    public var maxPayload: Int
    public var receiveWindow: Int
    public var tickRate: Int
    public var timelineMemory: Int
    public var maxTimelines: Int
    public var players: Int
    public var maxCurvePoints: Int
    public var flashSlots: Int
    public var flashSlotSize: Int
    public var triggerInputs: Int
    public var audio: AudioOutput
    public var audioSampleRate: Int
    public var keepAlive: Duration
    public var streamMaxSamples: Int
    public var channels: [ActuatorChannel]

    public struct InvalidCapabilities: Error, Equatable, Sendable, CustomStringConvertible {
        public var field: String
        public var problem: String
        public var description: String { "INFO.\(field): \(problem)" }
    }

    /// Reads an INFO message; a value no board may state (e.g. a window of 0) is an error naming the field.
    public init(info message: WireMessage) throws(InvalidCapabilities) {
        guard case .info(let info) = message else {
            throw InvalidCapabilities(field: "type", problem: "expected INFO, got \(message.type.name)")
        }
        try self.init(info: info)
    }

    public init(info: WireMessage.Info) throws(InvalidCapabilities) {
        func checked<Value: BinaryInteger>(
            _ value: Value, _ name: String, in range: ClosedRange<Int>
        ) throws(InvalidCapabilities) -> Int {
            guard range.contains(Int(value)) else {
                throw InvalidCapabilities(
                    field: name, problem: "\(value) outside \(range.lowerBound)…\(range.upperBound)")
            }
            return Int(value)
        }
        version = ProtocolVersion(major: info.major, minor: info.minor)
        firmware = info.firmware
        boardName = info.board
        serialNumber = info.serial
        maxPayload = try checked(
            info.maxPayload, "max_payload", in: FrameLimits.minimumMaxPayload...FrameLimits.absoluteMaxPayload)
        receiveWindow = try checked(info.window, "window", in: 1...127)
        tickRate = try checked(info.tickHz, "tick_hz", in: 1...1_000_000)
        timelineMemory = Int(info.timelineMemory)
        maxTimelines = Int(info.maxTimelines)
        players = Int(info.players)
        maxCurvePoints = Int(info.maxCurvePoints)
        flashSlots = Int(info.flashSlots)
        flashSlotSize = Int(info.flashSlotSize)
        triggerInputs = Int(info.triggerInputs)
        audio =
            switch info.audio {
            case .none: .none
            case .pwmBuzzer: .pwmBuzzer
            case .dacSpeaker: .dacSpeaker
            case .simulated: .simulated
            case let other: .unknown(other.rawValue)
            }
        audioSampleRate = Int(info.audioRateHz)
        keepAlive = .milliseconds(try checked(info.keepaliveMs, "keepalive_ms", in: 1...65535))
        streamMaxSamples = Int(info.streamMaxSamples)
        channels = info.channels.map { channel in
            ActuatorChannel(
                kind: channel.kind == .lra ? .lra : channel.kind == .erm ? .erm : .unknown(channel.kind.rawValue),
                resonantFrequency: channel.resonantDhz == 0 ? nil : Double(channel.resonantDhz) / 10,
                ratedDriveMillivolts: Int(channel.ratedMv), maximumDriveMillivolts: Int(channel.maxMv))
        }
    }
}
