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

    @Option(
        help:
            "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim). Give it more than once to play on a rig of those boards."
    )
    var device: [String] = []

    @Option(help: "A rig file (JSON): several boards played as one, their channels named.")
    var rig: String?

    @Option(
        help:
            "Where to play: all (default), channel names or indices separated by commas (left,right; 0,2), board.channel on a rig, or a locality the rig file names."
    )
    var locality: String?

    @Option(
        help:
            "Move each pattern along its locality's channels: TIME:POSITION points, seconds from its start and 0 (first channel) to 1 (last), linear between them: 0:0,2:1."
    )
    var pan: String?

    @Flag(help: "Repeat the last file until interrupted.")
    var loop = false

    @Option(help: "Playback rate, 1/256 to 16 (1 is as authored).")
    var rate: Double = 1

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one pattern file") }
        guard rate.isFinite, rate >= 1.0 / 256, rate <= 16 else {
            throw ValidationError("--rate \(rate): must be between 1/256 and 16")
        }
        if rig != nil, !device.isEmpty { throw ValidationError("give --rig or --device, not both") }
        if rate != 1, rig != nil || device.count > 1 {
            throw ValidationError("--rate plays on one board only, not a rig")
        }
        if let pan { _ = try parsePan(pan) }
    }

    func run() async throws {
        let patterns = try files.map { file in (file, try loadPattern(at: URL(fileURLWithPath: file))) }
        if let configuration = try rigConfiguration(file: rig, devices: device) {
            return try await Self.play(
                patterns, on: configuration, locality: locality, pan: pan.map(parsePan), loop: loop)
        }
        let (rate, loop) = (rate, loop)
        let locality: HapticLocality
        do { locality = try self.locality.map { try HapticLocality(parsing: $0) } ?? .all } catch {
            throw failure("--locality: \(error)")
        }
        try await withEngine(device: device.first) { engine in
            let board = await engine.capabilities?.boardName ?? "the board"
            for (index, (file, pattern)) in patterns.enumerated() {
                let looping = loop && index == patterns.count - 1
                let player = try await engine.makeAdvancedPlayer(with: pattern, locality: locality)
                if rate != 1 { try await player.setPlaybackRate(rate) }
                if looping { try await player.setLoop(enabled: true) }
                let events = engine.events
                // The host's clock, not two readings of the board's estimated clock, which clock
                // synchronisation may move between them.
                let started = ContinuousClock.now
                let length = pattern.duration / rate
                Console.current.line(
                    String(
                        format: "%@: playing on %@%@ (%.3f s%@)", file, board,
                        locality.isAll ? "" : ", channels \(locality)", length,
                        looping ? ", looping until Ctrl-C" : ""))
                if let memory = await engine.capabilities?.timelineMemory, player.timelineSize > memory {
                    Console.current.line(
                        "\(file): \(player.timelineSize) bytes, more than the board's \(memory) bytes of timeline memory: streamed in pieces"
                    )
                }
                try await player.start(atTime: HapticEngine.timeImmediate)
                if let pan { try await player.schedulePanCurve(parsePan(pan), atTime: HapticEngine.timeImmediate) }
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

    /// Plays the files on a rig, one after another, each on `locality` across its boards; waits
    /// each pattern's length on the host's clock (the boards play it at the same host instants).
    static func play(
        _ patterns: [(String, HapticPattern)], on configuration: RigConfiguration, locality name: String?,
        pan: [HapticPanPoint]? = nil, loop: Bool
    ) async throws {
        try await withRig(configuration) { rig in
            var locality = HapticLocality.all
            if let name { locality = try await rig.locality(named: name) }
            let boards = await rig.boards
            let channels = boards.reduce(0) { $0 + $1.channelNames.count }
            Console.current.line(
                "rig: \(boards.count) boards (\(boards.map(\.name).joined(separator: ", "))), \(channels) channels")
            for (index, (file, pattern)) in patterns.enumerated() {
                let looping = loop && index == patterns.count - 1
                let player = try await rig.makePlayer(with: pattern, locality: locality)
                if looping { try await player.setLoop(enabled: true) }
                Console.current.line(
                    String(
                        format: "%@: playing on the rig, %@ (%.3f s%@)", file,
                        locality.isAll ? "every channel" : "channels \(locality)", pattern.duration,
                        looping ? ", looping until Ctrl-C" : ""))
                let started = ContinuousClock.now
                let at = await rig.currentTime + HapticRig.immediateLead.secondsDouble
                try await player.start(atTime: at)
                if let pan { try await player.schedulePanCurve(pan, atTime: at) }
                if looping {
                    while true { try await Task.sleep(for: .seconds(3600)) }
                }
                let end = HapticRig.immediateLead + .milliseconds(Int64((pattern.duration * 1000).rounded()) + 100)
                try await Task.sleep(until: started + end)
                Console.current.line(
                    String(format: "%@: done in %.3f s", file, (ContinuousClock.now - started).secondsDouble))
            }
        }
    }
}
