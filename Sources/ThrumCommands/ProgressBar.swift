import Foundation
import ThrumTransport

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (so logs and tests
/// see no carriage returns), redrawn at most once per percent.
final class ProgressBar: Sendable {
    private let label: String
    private let console = Console.current
    private let lastPercent = Locked(-1)
    private let enabled = isatty(STDERR_FILENO) != 0
    private let unit: String?

    /// `unit` names what `update` counts (bytes); nil shows only the percentage.
    init(label: String, unit: String? = "bytes") {
        self.label = label
        self.unit = unit
    }

    func update(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        let line: String? = lastPercent.withLock { lastPercent in
            guard percent != lastPercent else { return nil }
            lastPercent = percent
            let filled = percent * 30 / 100
            return
                "\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 30 - filled))] \(percent)%\(unit.map { " (\(done)/\(total) \($0))" } ?? "")"
        }
        if let line { console.writeErr(line) }
    }

    func finish() {
        if enabled, lastPercent.withLock({ $0 >= 0 }) { console.writeErr("\n") }
    }
}
