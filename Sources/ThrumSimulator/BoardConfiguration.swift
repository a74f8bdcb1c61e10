import ThrumFirmwareCore

/// What a simulated board is: its actuator channels, memory, flash slots, tick rate, audio output
/// and the line it is reached over. The C core receives it as a `thr_board_config`.
public struct BoardConfiguration: Sendable, Hashable {
    public var firmware = "thrum-sim 0.1"
    public var board = "thrum simulator"
    public var serial = "SIM-0001"
    /// Renderer ticks per second; 1,000,000 / tickRate must be a whole number.
    public var tickRate = 1000
    public var channels: [ActuatorModel] = [.lra()]
    /// Names the core gives hosts for its channels (CHANNEL_REPLY), by channel index: "left",
    /// "thumb". A channel left out has none. At most `maximumChannelNameBytes` UTF-8 bytes each.
    public var channelNames: [Int: String] = [:]
    /// Bytes of timeline memory (loaded timelines).
    public var timelineMemory = 64 * 1024
    public var slotCount = 4
    /// Largest timeline a flash slot holds.
    public var slotSize = 8 * 1024
    public var flashSectorSize = 1024
    public var keepAliveMilliseconds = 500
    public var fadeMilliseconds = 50
    public var audioOutput = AudioOutput.simulated
    public var audioRate = 8000
    public var triggerInputs = 1
    /// Channels whose driver chip does not answer, as on a board with nothing wired to them: the
    /// firmware reports them faulted (`actuator_missing`) and keeps them silent.
    public var missingActuators: Set<Int> = []
    /// 0 = derived from the clock at boot.
    public var bootEpoch: UInt16 = 0
    /// How far the board's crystal is off: its microsecond clock runs (1 + clockPPM·10⁻⁶) times
    /// as fast as the host's (negative: slow). Within `BoardCrystal.ppmRange`.
    public var clockPPM: Double = 0
    public var line = LineModel()
    /// Seconds of rendered output the board keeps for TRACE_READ, per channel.
    public var traceSeconds = 120

    public enum AudioOutput: UInt8, Sendable, Hashable {
        case none = 0, pwmBuzzer = 1, dacSpeaker = 2, simulated = 3
    }

    public init() {}

    /// The largest values the simulator's build of the core accepts.
    public static let maximumChannels = Int(THR_MAX_CHANNELS)
    public static let maximumSlots = Int(THR_MAX_SLOTS)
    /// The longest channel name the wire carries (thr_channel_config.name).
    public static let maximumChannelNameBytes = 16

    /// The board's clock against the host's, from `clockPPM`.
    public var crystal: BoardCrystal { BoardCrystal(ppm: clockPPM) }

    /// Flash the slots need: two metadata sectors, then two banks per slot (header + content).
    public var flashSize: Int {
        guard slotCount > 0 else { return 0 }
        let bankSectors = (slotSize + 20 + flashSectorSize - 1) / flashSectorSize
        return (2 + 2 * slotCount * bankSectors) * flashSectorSize
    }

    /// Every reason this configuration cannot be simulated, naming the field.
    public func problems() -> [String] {
        var found: [String] = []
        if tickRate <= 0 || 1_000_000 % tickRate != 0 {
            found.append("tickRate \(tickRate): 1,000,000 / tickRate must be a whole number")
        }
        if channels.isEmpty || channels.count > Self.maximumChannels {
            found.append("channels: \(channels.count), must be 1...\(Self.maximumChannels)")
        }
        for (index, channel) in channels.enumerated() {
            found += channel.problems().map { "channels[\(index)]: \($0)" }
        }
        found += channelNameProblems()
        if !BoardCrystal.ppmRange.contains(clockPPM) {
            found.append("clockPPM \(clockPPM): must be \(BoardCrystal.ppmRange)")
        }
        if timelineMemory < 64 || timelineMemory > 16 << 20 {
            found.append("timelineMemory \(timelineMemory): must be 64 bytes...16 MiB")
        }
        if slotCount < 0 || slotCount > Self.maximumSlots {
            found.append("slotCount \(slotCount): must be 0...\(Self.maximumSlots)")
        }
        if slotCount > 0 && (slotSize < 16 || slotSize > 1 << 20) {
            found.append("slotSize \(slotSize): must be 16 bytes...1 MiB")
        }
        if flashSectorSize < 64 || flashSectorSize > 65536 || flashSectorSize & (flashSectorSize - 1) != 0 {
            found.append("flashSectorSize \(flashSectorSize): must be a power of two, 64...65536")
        }
        if keepAliveMilliseconds < 0 || keepAliveMilliseconds > 65535 {
            found.append("keepAliveMilliseconds \(keepAliveMilliseconds): must be 0...65535")
        }
        if fadeMilliseconds < 0 || fadeMilliseconds > 65535 {
            found.append("fadeMilliseconds \(fadeMilliseconds): must be 0...65535")
        }
        if triggerInputs < 0 || triggerInputs > 4 { found.append("triggerInputs \(triggerInputs): must be 0...4") }
        for (name, text) in [("firmware", firmware), ("board", board), ("serial", serial)] where text.utf8.count > 32 {
            found.append("\(name): \(text.utf8.count) bytes, at most 32")
        }
        if traceSeconds < 0 || traceSeconds > 3600 { found.append("traceSeconds \(traceSeconds): must be 0...3600") }
        found += line.problems().map { "line: \($0)" }
        return found
    }
}

extension BoardConfiguration {
    /// Names that the core could not pass on: on a channel the board lacks, empty, too long for
    /// the wire, or cut short by a NUL in the C string.
    fileprivate func channelNameProblems() -> [String] {
        channelNames.sorted { $0.key < $1.key }.compactMap { index, name in
            let field = "channelNames[\(index)] \"\(name)\""
            if !channels.indices.contains(index) { return "\(field): no such channel, the board has \(channels.count)" }
            if name.isEmpty { return "\(field): empty (leave the channel out for no name)" }
            if name.utf8.count > Self.maximumChannelNameBytes {
                return "\(field): \(name.utf8.count) bytes, at most \(Self.maximumChannelNameBytes)"
            }
            if name.utf8.contains(0) { return "\(field): contains a NUL byte" }
            return nil
        }
    }
}

/// Why a board could not be built.
public struct SimulatorError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
