import ArgumentParser
import Foundation
import Thrum
import ThrumModel
import ThrumTransport

/// `thrum play FILE... [--device D] [--loop] [--rate R]`
struct PlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play pattern files on a board, one after another; returns when they are done.",
        discussion: """
            The device is `sim` (the embedded simulator), a serial device or pseudo-terminal path, or \
            usb:VID:PID[:SERIAL]; the default is $THRUM_DEVICE, else sim. With --loop the last file \
            repeats until Ctrl-C. On a terminal a live meter shows the pattern's intensity and sharpness \
            as it plays.
            """
    )

    @Argument(help: "AHAP or .haptic files.")
    var files: [String]

    @Option(help: "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim).")
    var device: String?

    @Flag(help: "Repeat the last file until interrupted.")
    var loop = false

    @Option(help: "Playback rate, 1/256 to 16 (1 is as authored).")
    var rate: Double = 1

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one pattern file") }
        guard rate.isFinite, rate >= 1.0 / 256, rate <= 16 else {
            throw ValidationError("--rate \(rate): must be between 1/256 and 16")
        }
    }

    func run() async throws {
        let patterns = try files.map { file in (file, try loadPattern(at: URL(fileURLWithPath: file))) }
        let (rate, loop) = (rate, loop)
        try await withEngine(device: device) { engine in
            let board = await engine.capabilities?.boardName ?? "the board"
            for (index, (file, pattern)) in patterns.enumerated() {
                let looping = loop && index == patterns.count - 1
                let player = try await engine.makeAdvancedPlayer(with: pattern)
                if rate != 1 { try await player.setPlaybackRate(rate) }
                if looping { try await player.setLoop(enabled: true) }
                let events = engine.events
                // The host's clock, not two readings of the board's estimated clock, which clock
                // synchronisation may move between them.
                let started = ContinuousClock.now
                let length = pattern.duration / rate
                Console.current.line(
                    String(
                        format: "%@: playing on %@ (%.3f s%@)", file, board, length,
                        looping ? ", looping until Ctrl-C" : ""))
                if let memory = await engine.capabilities?.timelineMemory, player.timelineSize > memory {
                    Console.current.line(
                        "\(file): \(player.timelineSize) bytes, more than the board's \(memory) bytes of timeline memory: streamed in pieces"
                    )
                }
                try await player.start(atTime: HapticEngine.timeImmediate)
                let meter =
                    LiveMeter.isWanted
                    ? Task { await LiveMeter(pattern: pattern, rate: rate, looping: looping).run(since: .now) } : nil
                defer { meter?.cancel() }
                try await Self.waitForEnd(of: player, events: events, within: looping ? nil : 2 * length + 10)
                meter?.cancel()
                await meter?.value
                let took = (ContinuousClock.now - started).secondsDouble
                Console.current.line(String(format: "%@: done in %.3f s", file, took))
            }
        }
    }

    /// Waits until the board reports the player finished, the engine stops, or `limit` seconds pass;
    /// each command the board reports it ran late moves the limit on by as much (a board that is
    /// behind, on a busy machine say, is not a board that went quiet). Late commands and the engine's
    /// other warnings reach the user through its log.
    static func waitForEnd(
        of player: HapticPatternPlayer, events: AsyncStream<HapticEngineEvent>, within limit: Double?
    ) async throws {
        let deadline = Locked(limit.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .playerFinished(let id) where id == player.id: return
                    case .stopped(let reason): throw HapticEngineError.engineNotRunning("the engine stopped: \(reason)")
                    case .late(let seconds):
                        deadline.withLock { $0 = $0.map { $0 + .milliseconds(Int64(seconds * 1000)) } }
                    default: continue
                    }
                }
                try Task.checkCancellation()
            }
            if deadline.withLock({ $0 }) != nil {
                group.addTask {
                    // Sleeps until the deadline as it stands, again while late reports move it on.
                    while let due = deadline.withLock({ $0 }), ContinuousClock.now < due {
                        try await ContinuousClock().sleep(until: due)
                    }
                    throw HapticEngineError.link("the board did not report the end of the pattern in time")
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
