import ArgumentParser
import ThrumSimulator

/// The simulated board's shape for `thrum sim --pty`: its channels and their names, its crystal and
/// its line's jitter, so that several simulators on one machine behave as the boards of a rig.
struct SimBoardOptions: ParsableArguments {
    enum Actuator: String, ExpressibleByArgument, CaseIterable {
        case lra, erm
    }

    @Option(help: "The actuator of every channel: lra or erm.")
    var actuator: Actuator = .lra

    @Option(
        help: ArgumentHelp(
            "Actuator channels, 1 to \(BoardConfiguration.maximumChannels) (default: one a --channel-names name, else 1).",
            valueName: "count"))
    var channels: Int?

    @Option(
        name: .customLong("channel-names"),
        help: ArgumentHelp(
            "The channels' names, comma-separated, up to \(BoardConfiguration.maximumChannelNameBytes) bytes each "
                + "(left,right,thumb,wrist); as many as --channels.",
            valueName: "names"))
    var channelNames: String?

    // Unconditional: `--clock-ppm -40` would otherwise read -40 as an option.
    @Option(
        name: .customLong("clock-ppm"), parsing: .unconditional,
        help: ArgumentHelp(
            "How far the board's clock is off, in parts per million (-40000 to 40000; negative: slow).",
            valueName: "ppm"))
    var clockPPM: Double = 0

    @Option(
        name: .customLong("jitter-us"),
        help: ArgumentHelp(
            "Extra random latency on the line, 0 to this many µs a delivery, never reordering bytes.",
            valueName: "us"))
    var jitterMicroseconds: Int = 0

    /// The names given, in channel order (empty without --channel-names).
    var names: [String] {
        channelNames.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// The options given that shape the simulated board (which the QEMU board cannot take).
    var given: [String] {
        [
            channels.map { _ in "--channels" }, channelNames.map { _ in "--channel-names" },
            clockPPM != 0 ? "--clock-ppm" : nil, jitterMicroseconds != 0 ? "--jitter-us" : nil,
        ].compactMap { $0 }
    }

    func validate() throws {
        let maximum = BoardConfiguration.maximumChannels
        if let channels, !(1...maximum).contains(channels) {
            throw ValidationError("--channels \(channels): must be 1...\(maximum)")
        }
        try validateNames()
        if !BoardCrystal.ppmRange.contains(clockPPM) {
            throw ValidationError("--clock-ppm \(clockPPM): must be -40000...40000")
        }
        if !(0...Int(LineModel.maximumJitterMicroseconds)).contains(jitterMicroseconds) {
            throw ValidationError(
                "--jitter-us \(jitterMicroseconds): must be 0...\(LineModel.maximumJitterMicroseconds)")
        }
    }

    private func validateNames() throws {
        guard channelNames != nil else { return }
        let limit = BoardConfiguration.maximumChannelNameBytes
        for name in names {
            if name.isEmpty {
                throw ValidationError("--channel-names: an empty name (one name a channel, comma-separated)")
            }
            if name.utf8.count > limit {
                throw ValidationError("--channel-names: \"\(name)\" is \(name.utf8.count) bytes, at most \(limit)")
            }
        }
        if let channels, names.count != channels {
            throw ValidationError("--channel-names: \(names.count) names for --channels \(channels)")
        }
        if names.count > BoardConfiguration.maximumChannels {
            throw ValidationError(
                "--channel-names: \(names.count) names, a board has 1...\(BoardConfiguration.maximumChannels) channels")
        }
    }

    /// Sets the board's channels, names, crystal and line jitter.
    func apply(to board: inout BoardConfiguration) {
        let count = channels ?? max(1, names.count)
        board.channels = Array(repeating: actuator == .lra ? .lra() : .erm(), count: count)
        board.channelNames = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.offset, $0.element) })
        board.clockPPM = clockPPM
        board.line.jitterMicroseconds = UInt64(jitterMicroseconds)
    }
}
