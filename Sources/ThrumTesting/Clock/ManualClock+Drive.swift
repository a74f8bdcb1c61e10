import Foundation
import ThrumTransport

extension ManualClock {
    /// Runs `body` while moving this clock forward `step` at a time, letting other tasks run
    /// between steps, until `body` returns or `limit` of clock time passes (then
    /// ``ManualClockLimit`` is thrown and `body` cancelled). For tests and virtual-time benchmarks
    /// of systems whose every part sleeps on this clock: nothing waits on wall-clock time.
    public func drive<T: Sendable>(
        step: Duration = .milliseconds(1), limit: Duration = .seconds(30), yields: Int = 50,
        _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = DriveOutcome<T>()
        let task = Task {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
        }
        let end = now.advanced(by: limit)
        while outcome.value == nil {
            await settle(yields: yields)
            if outcome.value != nil { break }
            guard now < end else {
                task.cancel()
                throw ManualClockLimit(limit: limit)
            }
            advance(by: step)
        }
        return try outcome.value!.get()
    }

    /// Moves the clock on by `duration`, `step` at a time, letting other tasks run between steps.
    public func pass(_ duration: Duration, step: Duration = .milliseconds(1), yields: Int = 50) async {
        let end = now.advanced(by: duration)
        while now < end {
            await settle(yields: yields)
            advance(by: min(step, now.duration(to: end)))
        }
        await settle(yields: yields)
    }

    /// Lets the other tasks run before the clock moves on.
    ///
    /// Inside ``SerialExecution/run(_:)`` it yields until no other task can run (each is asleep on
    /// a clock, waiting on an empty queue or for a reply), so the clock moves only when the system
    /// is quiescent and virtual time never pays for host scheduling: the same figures on an idle
    /// and on a loaded machine. At most `limit` yields: a task that never suspends, or one waiting
    /// on another thread, must not hold time still for ever (``unsettledSteps`` counts those).
    ///
    /// Elsewhere it yields `yields` times, which lets the other tasks run only as long as they get
    /// a core soon enough: under CPU load, a preempted thread's task may still be running when the
    /// clock moves on.
    public func settle(yields: Int = 50, limit: Int = 100_000) async {
        guard SerialExecution.isActive else {
            for _ in 0..<yields { await Task.yield() }
            return
        }
        var spent = 0
        repeat {
            await Task.yield()
            spent += 1
        } while SerialExecution.pendingJobs > 0 && spent < limit
        if spent >= limit { noteUnsettled() }
    }
}

/// ``ManualClock/drive(step:limit:yields:_:)`` ran out of clock time.
public struct ManualClockLimit: Error, CustomStringConvertible {
    public var limit: Duration
    public var description: String { "not done within \(limit) of virtual time" }
}

private final class DriveOutcome<T: Sendable>: Sendable {
    private let result = Locked<Result<T, any Error>?>(nil)
    var value: Result<T, any Error>? { result.withLock { $0 } }
    func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }
}
