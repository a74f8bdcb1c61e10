import Logging

/// The `thrum` tool's swift-log backend, which its entry point installs once: what Thrum logs at
/// warning level and above goes to stderr the way the tool prints its own warnings,
/// `thrum: warning: MESSAGE` (`thrum: error: …` for errors), with the metadata other than the
/// device (named on the command line already) after it: `(player: 2)`. Less severe messages are
/// not printed: the tool has no verbose mode.
public struct ConsoleLogHandler: LogHandler {
    public var logLevel: Logger.Level = .warning
    public var metadata: Logger.Metadata = [:]
    /// Where the lines go; nil: `Console.current` when the message is logged.
    private let console: Console?

    public init(label: String, console: Console? = nil) {
        self.console = console
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:]) { $1 }
        merged["device"] = nil
        let details = merged.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        let severity = event.level >= .error ? "error" : "warning"
        (console ?? Console.current).error(
            "thrum: \(severity): \(event.message)" + (details.isEmpty ? "" : " (\(details))"))
    }

    /// Makes it swift-log's backend for the whole process (swift-log allows this once).
    public static func bootstrap() {
        LoggingSystem.bootstrap { ConsoleLogHandler(label: $0) }
    }
}
