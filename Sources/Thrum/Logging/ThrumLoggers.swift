import Logging
import ThrumWire

/// The labels of Thrum's loggers (swift-log), one per layer. Thrum never bootstraps swift-log:
/// its messages go wherever the app's `LoggingSystem.bootstrap` sends them, under these labels,
/// unless the app hands the engine a logger of its own.
public enum ThrumLogLabel {
    /// The engine: its warnings (audio events and parameters the board cannot play, streaming,
    /// commands that ran late, pattern files' warnings), faults, why it stopped by itself.
    public static let engine = "thrum.engine"
    /// The link to the board: connecting, the link going down, the board resetting the link,
    /// retransmissions, messages that could not be decoded.
    public static let link = "thrum.link"
    /// What the board itself says: its LOG messages (at their level) and its ERROR reports.
    public static let board = "thrum.board"
}

/// One engine's loggers, one per label, each with the engine's device in its metadata (`device`).
package struct ThrumLoggers: Sendable {
    package var engine: Logger
    package var link: Logger
    package var board: Logger

    /// `make` makes the logger for a label: by default through swift-log's bootstrap.
    package init(device: DeviceAddress, make: (String) -> Logger = { Logger(label: $0) }) {
        engine = make(ThrumLogLabel.engine)
        link = make(ThrumLogLabel.link)
        board = make(ThrumLogLabel.board)
        for keyPath in [\ThrumLoggers.engine, \.link, \.board] {
            self[keyPath: keyPath][metadataKey: "device"] = "\(device)"
        }
    }

}

extension Logger.Level {
    /// The wire's log level (a board's LOG, the engine's events) as swift-log's; a level this
    /// host does not know is `.info`.
    init(_ level: WireLogLevel) {
        self =
            switch level {
            case .debug: .debug
            case .warning: .warning
            case .error: .error
            default: .info
            }
    }
}
