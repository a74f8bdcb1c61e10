/// The app's handlers: why the engine stopped by itself, a board reboot, and every player finished.
struct EngineHandlers {
    var stopped: (@Sendable (StoppedReason) -> Void)?
    var reset: (@Sendable () -> Void)?
    /// Called once, when every player has finished; its answer says whether the engine stops.
    var finished: (@Sendable ((any Error)?) -> FinishedAction)?

    /// The finished handler, removed: it answers once.
    mutating func takeFinished() -> (@Sendable ((any Error)?) -> FinishedAction)? {
        defer { finished = nil }
        return finished
    }
}
