#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a mutex, with a condition variable for the few dedicated threads that must
/// sleep until the value changes (the serial port's reader and writer). The one lock type of
/// the package. (`Synchronization.Mutex` would need macOS 15; the package supports 13.)
///
/// Every `withLock` wakes the threads sleeping in `wait` (a cheap no-op when none is), which
/// then re-check what they wait for: whoever changes the value needs no separate signal.
///
/// Never suspend, nor resume continuations (they may run user code), inside `body`: collect
/// them in ``Resumptions`` and run those after the lock is released.
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access, then wakes the threads sleeping in `wait`.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `ready` holds, then runs `body` under the same lock.
    /// Only for dedicated threads, never from async code (it would block a cooperative thread).
    package func wait<Result>(
        until ready: (Value) -> Bool, then body: (inout Value) throws -> Result
    ) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return try body(&value)
    }
}
