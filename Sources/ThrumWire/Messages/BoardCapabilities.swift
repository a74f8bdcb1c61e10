/// What a board says it can do, from its INFO (PROTOCOL.md §4.1, DESIGN.md decision 7): the host plans with
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
    public init(info: WireMessage) throws(InvalidCapabilities) {
        guard info.type == .info else { throw InvalidCapabilities(field: "type", problem: "expected INFO, got \(info.type.name)") }
        func int(_ name: String, in range: ClosedRange<Int64>? = nil) throws(InvalidCapabilities) -> Int {
            guard let value = info.int(name) else { throw InvalidCapabilities(field: name, problem: "missing") }
            if let range, !range.contains(value) { throw InvalidCapabilities(field: name, problem: "\(value) outside \(range.lowerBound)…\(range.upperBound)") }
            return Int(value)
        }
        func text(_ name: String) throws(InvalidCapabilities) -> String {
            guard let value = info[name]?.string else { throw InvalidCapabilities(field: name, problem: "missing") }
            return value
        }
        version = ProtocolVersion(major: UInt8(try int("major")), minor: UInt8(try int("minor")))
        firmware = try text("firmware")
        boardName = try text("board")
        serialNumber = try text("serial")
        maxPayload = try int("max_payload", in: Int64(FrameLimits.minimumMaxPayload)...Int64(FrameLimits.absoluteMaxPayload))
        receiveWindow = try int("window", in: 1...127)
        tickRate = try int("tick_hz", in: 1...1_000_000)
        timelineMemory = try int("timeline_memory")
        maxTimelines = try int("max_timelines")
        players = try int("players")
        maxCurvePoints = try int("max_curve_points")
        flashSlots = try int("flash_slots")
        flashSlotSize = try int("flash_slot_size")
        triggerInputs = try int("trigger_inputs")
        audio = switch try int("audio") {
        case 0: .none
        case 1: .pwmBuzzer
        case 2: .dacSpeaker
        case 3: .simulated
        case let other: .unknown(UInt8(other))
        }
        audioSampleRate = try int("audio_rate_hz")
        keepAlive = .milliseconds(try int("keepalive_ms", in: 1...65535))
        streamMaxSamples = try int("stream_max_samples")
        guard let list = info["channels"]?.list else { throw InvalidCapabilities(field: "channels", problem: "missing") }
        channels = []
        for (index, item) in list.enumerated() {
            guard let kind = item["kind"]?.int, let resonance = item["resonant_dhz"]?.int,
                let rated = item["rated_mv"]?.int, let maximum = item["max_mv"]?.int
            else { throw InvalidCapabilities(field: "channels[\(index)]", problem: "incomplete") }
            channels.append(ActuatorChannel(
                kind: kind == 0 ? .lra : kind == 1 ? .erm : .unknown(UInt8(kind)),
                resonantFrequency: resonance == 0 ? nil : Double(resonance) / 10,
                ratedDriveMillivolts: Int(rated), maximumDriveMillivolts: Int(maximum)))
        }
    }
}
