/// The app's handlers: why the engine stopped by itself, a board reboot, and every player finished.
struct EngineHandlers {
    /// What the finished handler hears: the error, if any, and the run it is called in (nil when
    /// the engine is stopped), which is the run its `.stopEngine` may end.
    typealias Finished = @Sendable ((any Error)?, EngineRun?) -> FinishedAction

    var stopped: (@Sendable (StoppedReason) -> Void)?
    var reset: (@Sendable () -> Void)?
    /// Called once, when every player has finished; its answer says whether the engine stops.
    var finished: Finished?

    /// The finished handler, removed: it answers once.
    mutating func takeFinished() -> Finished? {
        defer { finished = nil }
        return finished
    }
}
