import Foundation
import ThrumTransport

/// Runs async engine work for Core Haptics' synchronous API and waits for it.
///
/// Core Haptics' calls block their caller (an app's main thread, a game loop). Call them from
/// such a thread, not from inside a Swift concurrency task: a task that blocks here holds one of
/// the few threads the engine's own tasks need.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox<T>()
    Task.detached {
        do { result.value = .success(try await work()) } catch { result.value = .failure(error) }
        done.signal()
    }
    done.wait()
    switch result.value! {
    case .success(let value): return value
    case .failure(let error): throw CHHapticError(error)
    }
}

/// Starts async work and returns at once (the `completionHandler:` forms); the handler runs on
/// the engine's callback queue.
func detached(
    _ work: @escaping @Sendable () async throws -> Void, completion: (((any Error)?) -> Void)?,
    on callbacks: CallbackQueue
) {
    let deliver = completion.map { callbacks.forwarding($0) }
    Task.detached {
        do {
            try await work()
            deliver?(nil)
        } catch {
            deliver?(CHHapticError(error))
        }
    }
}

private final class ResultBox<T>: Sendable {
    private let stored = Locked<Result<T, any Error>?>(nil)
    var value: Result<T, any Error>? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
