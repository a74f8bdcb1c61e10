import Foundation
import ThrumModel
import ThrumWire

/// A one-line meter of what a playing pattern feels like now (the reference renderer at the
/// pattern's elapsed time, scaled by the playback rate), redrawn on stderr while it plays. Drawn
/// only when stderr is a terminal.
struct LiveMeter: Sendable {
    let pattern: HapticPattern
    let rate: Double
    let looping: Bool
    let console = Console.current

    static var isWanted: Bool { isatty(STDERR_FILENO) != 0 }

    /// Redraws every 50 ms until cancelled; clears its line at the end.
    func run(since start: ContinuousClock.Instant) async {
        let playback = Playback(pattern: pattern, startTime: 0)
        let length = max(pattern.duration, 0.001)
        while !Task.isCancelled {
            var elapsed = start.duration(to: .now).secondsDouble * rate
            if looping { elapsed = elapsed.truncatingRemainder(dividingBy: length) }
            let (intensity, sharpness) = ReferenceRenderer.sample([playback], channel: 0, at: elapsed)
            console.writeErr("\r" + Self.line(intensity: intensity, sharpness: sharpness, elapsed: elapsed))
            do { try await Task.sleep(for: .milliseconds(50)) } catch { break }
        }
        console.writeErr("\r" + String(repeating: " ", count: 72) + "\r")
    }

    static func line(intensity: Float, sharpness: Float, elapsed: Double) -> String {
        func bar(_ value: Float) -> String {
            let filled = Int((max(0, min(1, value)) * 20).rounded())
            return String(repeating: "█", count: filled) + String(repeating: "·", count: 20 - filled)
        }
        return String(
            format: "intensity %@ %.2f  sharpness %@ %.2f  %6.2f s", bar(intensity), intensity, bar(sharpness),
            sharpness, elapsed)
    }
}
