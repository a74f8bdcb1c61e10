import Foundation
import Logging
import ThrumTransport

/// A swift-log backend that keeps what is logged in memory, for tests that check what Thrum (or
/// the app) logs: give ``handler(label:)`` to an engine on a manual clock
/// (`HapticEngine(manualClock:simulator:logHandler:)`), to `Logger(label:factory:)` or to
/// `LoggingSystem.bootstrap`, then read ``entries``.
public final class LogRecorder: @unchecked Sendable {
    /// One message, with the label of the logger it went through.
    public struct Entry: Sendable, Equatable, CustomStringConvertible {
        public var label: String
        public var level: Logger.Level
        public var message: String
        /// The logger's metadata and the message's, as text.
        public var metadata: [String: String]

        public var description: String {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(label) \(level): \(message)" + (pairs.isEmpty ? "" : " [\(pairs)]")
        }
    }

    private let recorded = Locked<[Entry]>([])

    public init() {}

    /// Everything logged so far, oldest first.
    public var entries: [Entry] { recorded.withLock { $0 } }

    /// What went through loggers labelled `label`.
    public func entries(label: String) -> [Entry] { entries.filter { $0.label == label } }

    /// A handler for a logger labelled `label`, recording every level (`.trace` and up).
    public func handler(label: String) -> any LogHandler { Handler(label: label, recorder: self) }

    fileprivate func record(_ entry: Entry) { recorded.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let label: String
        let recorder: LogRecorder
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.record(
                Entry(
                    label: label, level: event.level, message: "\(event.message)",
                    metadata: merged.mapValues { "\($0)" }))
        }
    }
}
