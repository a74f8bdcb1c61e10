import Foundation
import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs every Swift concurrency job of the process on one thread, first come first served, for
/// as long as `run`'s body lasts, so that a ``ManualClock`` can tell when the system has
/// nothing left to do: when the driving task finds no other job waiting after a
/// `Task.yield()`, every other task is suspended (asleep on the clock, waiting on an empty
/// queue or for a reply) and virtual time may move on (``ManualClock/settle(yields:limit:)``).
///
/// Without it, the clock's drivers let other tasks run for a fixed number of yields, which is
/// only enough on an idle machine: under CPU load the thread running the board or the link is
/// preempted while the driver keeps yielding on the other core, and virtual time passes while
/// nothing runs (issue 15: `thrum-bench latency` reported 16–48 ms where the line needs 3).
///
/// It works through the Swift runtime's `swift_task_enqueueGlobal_hook` (the same seam as
/// swift-concurrency-extras' `withMainSerialExecutor`), so it is for tests and virtual-time
/// benchmarks only, one at a time; work that waits on wall-clock time or on other threads
/// still runs, but the clock cannot know about it.
public enum SerialExecution {
    /// Runs `body` with every job of the process on the one serial thread.
    ///
    /// `body` runs in a detached task, which prefers no executor: a caller's task executor
    /// preference (a test framework may set one) would otherwise keep the caller's jobs off the
    /// thread, running beside it.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        SerialJobQueue.shared.install()
        do {
            let result = try await Task.detached { try await body() }.value
            SerialJobQueue.shared.uninstall()
            return result
        } catch {
            SerialJobQueue.shared.uninstall()
            throw error
        }
    }

    /// Whether `run` is in effect.
    public static var isActive: Bool { SerialJobQueue.shared.isInstalled }

    /// Jobs waiting to run besides the one asking (0: every other task is suspended).
    public static var pendingJobs: Int { SerialJobQueue.shared.pendingCount }
}

private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void

/// The runtime's hook for jobs sent to the global concurrent executor.
nonisolated(unsafe) private let enqueueGlobalHook: UnsafeMutablePointer<EnqueueHook?>? = {
    guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else {
        return nil
    }
    return symbol.assumingMemoryBound(to: EnqueueHook?.self)
}()

/// The serial thread and its FIFO of jobs.
private final class SerialJobQueue: SerialExecutor, @unchecked Sendable {
    static let shared = SerialJobQueue()

    private struct State {
        var jobs: [UnownedJob] = []
        var head = 0
        var installed = false
        var threadStarted = false
    }
    private let state = Locked(State())

    var isInstalled: Bool { state.withLock { $0.installed } }
    var pendingCount: Int { state.withLock { $0.jobs.count - $0.head } }

    func install() {
        guard let enqueueGlobalHook else {
            fatalError("SerialExecution: the runtime has no swift_task_enqueueGlobal_hook")
        }
        let startThread = state.withLock { state -> Bool in
            precondition(!state.installed, "SerialExecution.run does not nest")
            state.installed = true
            defer { state.threadStarted = true }
            return !state.threadStarted
        }
        enqueueGlobalHook.pointee = { job, _ in SerialJobQueue.shared.push(job) }
        if startThread {
            let thread = Thread { SerialJobQueue.shared.serve() }
            thread.name = "thrum.serial-execution"
            thread.start()
        }
    }

    func uninstall() {
        enqueueGlobalHook?.pointee = nil
        state.withLock { $0.installed = false }
    }

    func push(_ job: UnownedJob) {
        state.withLock { $0.jobs.append(job) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        push(UnownedJob(job))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs jobs in order, for ever: a task that last ran here may still be sent here (its
    /// executor) after `run` ended, so the thread stays, asleep when there is nothing to do.
    private func serve() {
        while true {
            let job = state.wait(until: { $0.head < $0.jobs.count }) { state -> UnownedJob in
                let job = state.jobs[state.head]
                state.head += 1
                if state.head > 4096, state.head * 2 > state.jobs.count {
                    state.jobs.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}
