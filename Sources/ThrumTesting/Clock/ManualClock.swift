import ThrumTransport

/// A clock that moves only when told to, so that tests and simulations of delays, jitter and
/// line rates never wait on wall-clock time.
///
/// Sleepers wake when ``advance(by:)`` or ``advance(to:)`` passes their deadline. A test that
/// must know a task has gone to sleep before it advances uses ``waitForSleepers(_:)``, which
/// suspends (without polling) until that many sleepers are registered.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// Time since the clock was made.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var sleeperWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var nextID: UInt64 = 0
        var unsettledSteps = 0
    }

    private let state = Locked(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many times ``settle(yields:limit:)`` gave up waiting for quiescence (0 when virtual time
    /// only ever moved with every task suspended).
    public var unsettledSteps: Int { state.withLock { $0.unsettledSteps } }

    func noteUnsettled() { state.withLock { $0.unsettledSteps += 1 } }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a sleeping task.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                var resumptions: [() -> Void] = []
                state.withLock { state in
                    if deadline <= state.now {
                        resumptions.append { continuation.resume() }
                    } else if Task.isCancelled {
                        resumptions.append { continuation.resume(throwing: CancellationError()) }
                    } else {
                        state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                        resumptions += satisfiedWatchers(&state)
                    }
                }
                resumptions.forEach { $0() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant` (never backward), waking every sleeper whose deadline has come.
    public func advance(to instant: Instant) {
        let woken = state.withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Jumps to the earliest deadline and wakes its sleepers. Returns false when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let deadline = nextDeadline else { return false }
        advance(to: deadline)
        return true
    }

    /// Suspends until at least `count` tasks sleep on this clock.
    public func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWatchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func satisfiedWatchers(_ state: inout State) -> [() -> Void] {
        let sleeping = state.sleepers.count
        let ready = state.sleeperWatchers.filter { $0.count <= sleeping }
        state.sleeperWatchers.removeAll { $0.count <= sleeping }
        return ready.map { watcher in { watcher.continuation.resume() } }
    }
}
