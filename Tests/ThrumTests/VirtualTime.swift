import Foundation
import Testing
import ThrumTransport

/// Runs `body` while moving `clock` forward a millisecond at a time (the engine's link and the
/// embedded simulator both sleep on it), until `body` returns or `limit` of virtual time passes.
/// Nothing waits on wall-clock time: each step lets the other tasks run, then advances.
func withVirtualTime<T: Sendable>(
    _ clock: ManualClock, limit: Duration = .seconds(30), step: Duration = .milliseconds(1),
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Outcome<T>()
    let task = Task {
        do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
    }
    let end = clock.now.advanced(by: limit)
    while outcome.value == nil {
        for _ in 0..<50 { await Task.yield() }
        if outcome.value != nil { break }
        guard clock.now < end else {
            task.cancel()
            throw VirtualTimeLimit(limit: limit)
        }
        clock.advance(by: step)
    }
    return try outcome.value!.get()
}

/// Moves the clock on by `duration` in steps, letting tasks run between them.
func advance(_ clock: ManualClock, by duration: Duration, step: Duration = .milliseconds(1)) async {
    let end = clock.now.advanced(by: duration)
    while clock.now < end {
        for _ in 0..<50 { await Task.yield() }
        clock.advance(by: step)
    }
    for _ in 0..<50 { await Task.yield() }
}

struct VirtualTimeLimit: Error, CustomStringConvertible {
    var limit: Duration
    var description: String { "not done within \(limit) of virtual time" }
}

private final class Outcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    var value: Result<T, any Error>? { lock.withLock { result } }
    func set(_ value: Result<T, any Error>) { lock.withLock { result = value } }
}
