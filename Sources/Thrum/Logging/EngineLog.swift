import Logging
import ThrumWire

/// The engine's warnings: each goes to the engine's logger (label `thrum.engine`, the player or
/// the file in its metadata) and, as a `HapticEngineEvent.log` whose text names them, to the
/// engine's events. Things that have events of their own (late commands, faults, stops) are only
/// logged, through ``logger``.
struct EngineLog: Sendable {
    let logger: Logger
    let emit: EventBroadcast<HapticEngineEvent>

    /// What a message is about.
    enum Subject {
        case player(Int)
        case file(String)

        var metadata: Logger.Metadata {
            switch self {
            case .player(let id): ["player": "\(id)"]
            case .file(let name): ["file": "\(name)"]
            }
        }

        var prefix: String {
            switch self {
            case .player(let id): "player \(id): "
            case .file(let name): "\(name): "
            }
        }
    }

    func warning(_ text: String, about subject: Subject? = nil, metadata: Logger.Metadata = [:]) {
        callAsFunction(.warning, text, about: subject, metadata: metadata)
    }

    func callAsFunction(
        _ level: WireLogLevel, _ text: String, about subject: Subject? = nil, metadata: Logger.Metadata = [:]
    ) {
        logger.log(level: Logger.Level(level), "\(text)", metadata: metadata.merging(subject?.metadata ?? [:]) { $1 })
        emit.yield(.log(level: level, text: (subject?.prefix ?? "") + text))
    }
}
