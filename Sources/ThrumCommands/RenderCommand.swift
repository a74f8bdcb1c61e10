import ArgumentParser
import Foundation
import ThrumModel
import ThrumPlot
import ThrumSimulator
import ThrumTimeline

/// `thrum render FILE --svg OUT`
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Plot what a pattern feels like over time, as an SVG.",
        discussion: """
            Renders the pattern with the reference renderer (Protocol/SEMANTICS.md) and draws intensity \
            and sharpness lanes, the authored control curves, every event, a seconds axis and a legend. \
            An acceleration lane shows a simulated actuator (--actuator lra|erm|none) shaking as the \
            reference firmware, run in the board simulator, drives it. With --channels, one lane per \
            channel shows its share of the intensity, and --pan moves the pattern across them as a \
            player's pan does on a board.
            """
    )

    @Argument(help: "The AHAP or .haptic file to plot.")
    var file: String

    @Option(help: "Where to write the SVG plot.")
    var svg: String

    enum Actuator: String, ExpressibleByArgument, CaseIterable {
        case lra, erm, none
    }

    @Option(help: "The simulated actuator of the acceleration lane: lra, erm, or none (no lane).")
    var actuator: Actuator = .lra

    @Option(
        help:
            "Plot one lane per channel: a count (4) or names in the locality's order (shoulder,elbow,wrist,hand)."
    )
    var channels: String?

    @Option(
        help:
            "A pan across the channels, as TIME:POSITION points (seconds, 0 = first channel, 1 = last), linear between them: 0:0,2:1."
    )
    var pan: String?

    func validate() throws {
        if pan != nil, channels == nil { throw ValidationError("--pan needs --channels") }
        _ = try channelLanes()
    }

    /// The lanes --channels and --pan ask for.
    func channelLanes() throws -> PatternPlot.ChannelLanes? {
        guard let channels else { return nil }
        let names: [String]
        if let count = Int(channels) {
            guard (1...64).contains(count) else { throw ValidationError("--channels \(count): must be 1...64") }
            names = (0..<count).map { "channel \($0)" }
        } else {
            names = channels.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
                throw ValidationError("--channels '\(channels)': give a count or names separated by commas")
            }
        }
        var lanes = PatternPlot.ChannelLanes(names: names)
        if let pan { lanes.pan = try parsePan(pan).map { ($0.time, $0.position) } }
        return lanes
    }

    func run() throws {
        let input = URL(fileURLWithPath: file)
        let pattern = try loadPattern(at: input)
        let lane: PatternPlot.ActuatorLane?
        switch actuator {
        case .none: lane = nil
        case .lra: lane = simulatedActuatorLane(for: pattern, model: .lra())
        case .erm: lane = simulatedActuatorLane(for: pattern, model: .erm())
        }
        try writePlot(of: pattern, title: input.lastPathComponent, to: svg, actuator: lane, channels: channelLanes())
        Console.current.line("wrote \(svg)")
    }
}

/// The simulated actuator's lane for the plot; nil, with a warning, when the pattern cannot be
/// played there.
func simulatedActuatorLane(for pattern: HapticPattern, model: ActuatorModel) -> PatternPlot.ActuatorLane? {
    do {
        return try PatternPlot.ActuatorLane.simulated(for: pattern, model: model)
    } catch {
        Console.current.error("thrum: warning: no actuator lane: \(error)")
        return nil
    }
}

/// Writes the plot of `pattern` to `path`, or fails with a message naming the path.
func writePlot(
    of pattern: HapticPattern, title: String, to path: String, actuator: PatternPlot.ActuatorLane? = nil,
    channels: PatternPlot.ChannelLanes? = nil, waveform: PatternPlot.WaveformLane? = nil
) throws {
    let document = PatternPlot(
        title: title, pattern: pattern, actuator: actuator, channels: channels, waveform: waveform
    ).svg()
    do {
        try Data(document.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw failure("cannot write \(path): \(error.localizedDescription)")
    }
}
