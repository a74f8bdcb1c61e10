import ThrumWire

/// Counts of what the engine did on the board.
public struct EngineStatistics: Sendable, Equatable {
    /// Timelines uploaded, and their bytes.
    public var uploads = 0
    public var uploadedBytes = 0
    /// Starts that found their timeline already on the board.
    public var cacheHits = 0
    /// Timelines freed to make room for another.
    public var evictions = 0
    /// Pieces of patterns larger than the board's memory, scheduled one after another.
    public var streamedPieces = 0
}

/// What `notifyWhenPlayersFinished`'s handler answers.
public enum FinishedAction: Sendable {
    case stopEngine
    case leaveEngineRunning
}

/// Why the engine stopped by itself.
public enum StoppedReason: Sendable, Equatable {
    /// The drivers went to standby after the engine was idle (auto shutdown).
    case idleTimeout
    /// `notifyWhenPlayersFinished`'s handler asked to stop.
    case notifyWhenFinished
    /// The board reported a fault (over-temperature, over-current, actuator missing).
    case boardFault
    /// The board stopped output because the host's keep-alive lapsed.
    case keepAliveLapsed
    /// The line to the board was lost.
    case deviceLost(HapticEngineError)
    case systemError
}

/// Engine and player events, also delivered to the handlers.
public enum HapticEngineEvent: Sendable, Equatable {
    case started
    case stopped(StoppedReason)
    /// The board rebooted.
    case reset
    /// A player's pattern ended.
    case playerFinished(player: Int)
    /// A command arrived after its time; it ran at once.
    case late(seconds: Double)
    /// The board reported a fault on a channel (255: the whole board).
    case fault(WireFault, channel: UInt8)
    case log(level: WireLogLevel, text: String)
}
