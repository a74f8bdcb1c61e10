import ArgumentParser
import Foundation
import Thrum
import ThrumModel
import ThrumPlot
import ThrumTimeline

/// `thrum demo`: Thrum's main job on its embedded default.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Load a bundled example, print its summary, play it on the embedded simulator and write its plot (--rig: on a rig of two).",
        discussion: """
            With no arguments, uses Examples/slice.ahap from the current directory (the repository root) \
            and writes slice.svg in the current directory. The pattern is compiled, sent over the wire \
            protocol to the embedded simulated board (the reference firmware core) and played there, as \
            `thrum play --device sim` does; the plot shows the simulated actuator's acceleration.
            """
    )

    @Argument(help: "The pattern to demonstrate.")
    var file: String = "Examples/slice.ahap"

    @Option(help: "Where to write the plot (default: the file's name with extension .svg, in the current directory).")
    var svg: String?

    @Flag(
        help:
            "Play Examples/rig/sweep.ahap on the rig of Examples/rig/rig.json instead: two simulated boards whose crystals disagree, the pattern panned over four channels."
    )
    var rig = false

    func run() async throws {
        if rig { return try await runRig() }
        let input = URL(fileURLWithPath: file)
        guard FileManager.default.fileExists(atPath: input.path) else {
            throw failure("\(file) not found: run `thrum demo` from the repository root, or name a pattern file")
        }
        let pattern = try loadPattern(at: input)
        for line in PatternSummary(name: file, pattern: pattern).lines { Console.current.line(line) }
        do {
            let timeline = try TimelineCompiler.compile(pattern)
            Console.current.line("  timeline     \(timeline.count) bytes compiled (`thrum compile` writes it)")
        } catch {
            throw failure("\(file): \(error)")
        }
        let played = try await withEngine(device: "sim") { engine in
            let player = try await engine.makePlayer(with: pattern)
            let events = engine.events
            // Wall-clock time, not the engine's: its clock estimate may be refitted between the two
            // readings (by a few milliseconds right after the handshake), and the end reads early.
            let started = ContinuousClock.now
            try await player.start(atTime: HapticEngine.timeImmediate)
            try await PlayCommand.waitForEnd(of: player, events: events, within: pattern.duration + 5)
            let board = await engine.capabilities?.boardName ?? "the simulator"
            return (board, (ContinuousClock.now - started).secondsDouble)
        }
        Console.current.line(
            String(format: "  played       on %@ over the wire protocol, ended after %.3f s", played.0, played.1))
        let plot = svg ?? input.deletingPathExtension().appendingPathExtension("svg").lastPathComponent
        // The plot shows the simulated board's LRA playing the compiled timeline (the firmware core).
        try writePlot(
            of: pattern, title: input.lastPathComponent, to: plot,
            actuator: simulatedActuatorLane(for: pattern, model: .lra()))
        Console.current.line("  plot         \(plot)")
    }

    /// `thrum demo --rig`: the sweep down the example sleeve, played and plotted lane by lane.
    func runRig() async throws {
        let (patternFile, rigFile) = ("Examples/rig/sweep.ahap", "Examples/rig/rig.json")
        guard FileManager.default.fileExists(atPath: patternFile), FileManager.default.fileExists(atPath: rigFile)
        else {
            throw failure("\(patternFile) or \(rigFile) not found: run `thrum demo --rig` from the repository root")
        }
        let pattern = try loadPattern(at: URL(fileURLWithPath: patternFile))
        guard let configuration = try rigConfiguration(file: rigFile, devices: []) else { return }
        let pan = [HapticPanPoint(time: 0, position: 0), HapticPanPoint(time: pattern.duration, position: 1)]
        for line in PatternSummary(name: patternFile, pattern: pattern).lines { Console.current.line(line) }
        let boards = try await withRig(configuration) { rig in
            let locality = try await rig.locality(named: "sleeve")
            let player = try await rig.makePlayer(with: pattern, locality: locality)
            let at = await rig.currentTime + HapticRig.immediateLead.secondsDouble
            try await player.start(atTime: at)
            try await player.schedulePanCurve(pan, atTime: at)
            try await Task.sleep(for: .milliseconds(Int64((pattern.duration + 0.6) * 1000)))
            return await rig.boards
        }
        for board in boards {
            let names = board.channelNames.map { $0 ?? "?" }.joined(separator: ", ")
            let drift = board.driftPPM.map { String(format: "%+.1f ppm", $0) } ?? "not measured"
            Console.current.line("  board        \(board.name): channels \(names); crystal \(drift) against the host")
        }
        Console.current.line("  played       the sweep on locality sleeve, panned from shoulder (0) to hand (1)")
        let plot = svg ?? "sweep.svg"
        try writePlot(
            of: pattern, title: "sweep.ahap on the sleeve", to: plot,
            channels: PatternPlot.ChannelLanes(
                names: boards.flatMap { $0.channelNames.map { $0 ?? "?" } }, pan: pan.map { ($0.time, $0.position) }))
        Console.current.line("  plot         \(plot) (one lane per channel)")
    }
}
