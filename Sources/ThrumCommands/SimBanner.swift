import ThrumSimulator

/// What `thrum sim --pty` tells the user about the board it serves (on stderr, after the path),
/// so that the boards of a rig on one machine can be told apart.
enum SimBanner {
    static func lines(for board: BoardConfiguration) -> [String] {
        let channels = board.channels.indices.map { index in
            let kind: String
            switch board.channels[index] {
            case .lra: kind = "lra"
            case .erm: kind = "erm"
            }
            return board.channelNames[index].map { "\(index) \(kind) \"\($0)\"" } ?? "\(index) \(kind)"
        }
        let line =
            board.line.baudRate.map { "\($0) baud" } ?? "USB-like"
        var timing = "thrum sim: clock \(ppm(board.clockPPM)) ppm, line \(line)"
        if board.line.jitterMicroseconds > 0 { timing += ", jitter up to \(board.line.jitterMicroseconds) µs" }
        return [
            "thrum sim: \(channels.count) channel\(channels.count == 1 ? "" : "s"): \(channels.joined(separator: ", "))",
            timing,
        ]
    }

    /// Signed, and without a fraction when it has none: "+40", "-12.5", "0".
    private static func ppm(_ value: Double) -> String {
        let text = value.rounded() == value ? String(Int(value)) : String(value)
        return value > 0 ? "+" + text : text
    }
}
