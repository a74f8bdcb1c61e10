import ArgumentParser
import Foundation
import Thrum

/// `thrum stream [--device D]`: dynamic intensity and sharpness from standard input.
struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Play a continuous haptic whose intensity and sharpness follow `intensity sharpness` lines on stdin.",
        discussion: """
            Each line holds two numbers from 0 to 1, e.g. `0.8 0.3`; each is applied at once over the \
            real-time channel (newest wins). A line that is not two such numbers is reported with its \
            line number and skipped. At the end of input the output fades to silence and the command \
            returns. Try: printf '0.2 0.1\\n0.6 0.5\\n1 1\\n' | thrum stream

            On a terminal (stdin not redirected) the keyboard is a palette instead: up and down set \
            intensity, left and right sharpness, digits jump intensity to tenths, space silences and \
            resumes, q ends.
            """
    )

    @Option(help: "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim).")
    var device: String?

    @Option(help: "Seconds to hold each line's values before reading the next (0: as fast as lines come).")
    var hold: Double = 0

    @Option(
        help:
            "The line's baud rate when the board sits behind a UART (/dev/ttyUSB*): updates are then paced to it, the newest winning, instead of queueing. Omit for USB CDC boards and the simulator."
    )
    var baud: Int?

    func validate() throws {
        guard hold.isFinite, hold >= 0, hold <= 60 else {
            throw ValidationError("--hold \(hold): must be 0…60 seconds")
        }
        if let baud, !(300...20_000_000).contains(baud) {
            throw ValidationError("--baud \(baud): must be 300…20000000")
        }
    }

    func run() async throws {
        if let terminal = RawTerminal() {
            defer { terminal.restore() }
            try await runPalette(terminal)
            return
        }
        let hold = hold
        let lines = Self.standardInputLines()
        let applied = try await withEngine(device: device, lineRate: baud) { engine in
            let player = try await Self.startTone(on: engine)
            var count = 0
            for await (number, line) in lines {
                guard let (intensity, sharpness) = Self.parse(line) else {
                    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        Console.current.error(
                            "thrum stream: line \(number): expected `intensity sharpness`, two numbers from 0 to 1; got `\(line)`"
                        )
                    }
                    continue
                }
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: intensity, time: 0),
                    DynamicParameter(.hapticSharpnessControl, value: sharpness, time: 0),
                ])
                count += 1
                if hold > 0 { try await Task.sleep(for: .milliseconds(Int64(hold * 1000))) }
            }
            // The end: a reliable zero, then stop (the release is the board's fade).
            try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0, time: 0)], atTime: 0)
            try await player.stop(atTime: HapticEngine.timeImmediate)
            return count
        }
        Console.current.line("thrum stream: \(applied) update\(applied == 1 ? "" : "s") applied")
    }

    /// The keyboard palette: every key that changes the state sends it at once.
    private func runPalette(_ terminal: RawTerminal) async throws {
        let keys = terminal.keyChunks()
        let console = Console.current
        try await withEngine(device: device, lineRate: baud) { engine in
            let player = try await Self.startTone(on: engine)
            var palette = KeyboardPalette()
            func send() async throws {
                let (intensity, sharpness) = palette.output
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: intensity, time: 0),
                    DynamicParameter(.hapticSharpnessControl, value: sharpness, time: 0),
                ])
                console.writeErr("\r" + palette.line + "  ")
            }
            try await send()
            keyLoop: for await chunk in keys {
                for key in KeyboardPalette.keys(in: chunk) {
                    guard palette.apply(key) else { break keyLoop }
                }
                try await send()
            }
            console.writeErr("\n")
            try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0, time: 0)], atTime: 0)
            try await player.stop(atTime: HapticEngine.timeImmediate)
        }
    }

    /// A looping continuous event of intensity 1 and sharpness 0, silent until told otherwise:
    /// the intensity control then is the intensity, and the sharpness control the sharpness.
    static func startTone(on engine: HapticEngine) async throws -> HapticAdvancedPatternPlayer {
        let tone = HapticPattern(events: [.continuous(at: 0, duration: 30, intensity: 1, sharpness: 0)])
        let player = try await engine.makeAdvancedPlayer(with: tone)
        try await player.setLoop(enabled: true)
        // Muted from its first tick until the intensity control is 0, then audible.
        try await player.setMuted(true)
        try await player.start(atTime: HapticEngine.timeImmediate)
        try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0, time: 0)], atTime: 0)
        try await player.setMuted(false)
        return player
    }

    /// `intensity sharpness`, both within 0…1.
    static func parse(_ line: String) -> (Float, Float)? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        guard fields.count == 2, let intensity = Float(fields[0]), let sharpness = Float(fields[1]),
            (0...1).contains(intensity), (0...1).contains(sharpness)
        else { return nil }
        return (intensity, sharpness)
    }

    /// Lines of standard input with their numbers, read on a thread of their own (reading blocks).
    static func standardInputLines() -> AsyncStream<(Int, String)> {
        let (stream, continuation) = AsyncStream.makeStream(of: (Int, String).self)
        Thread {
            var number = 0
            while let line = readLine() {
                number += 1
                continuation.yield((number, line))
            }
            continuation.finish()
        }.start()
        return stream
    }
}
