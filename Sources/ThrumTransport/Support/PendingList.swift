/// Async calls waiting for something behind a ``Locked`` value: reads waiting for bytes, writes
/// waiting for room or for the OS to take their bytes. The one way the transports suspend a
/// caller. Each waiter is a continuation with an id (so its own cancellation handler can take it
/// back out) and a payload (what a write still has to send), kept in arrival order.
///
/// Invariants (each continuation is resumed exactly once):
/// - A continuation enters the list under the lock and leaves it exactly once under the lock:
///   served, failed, or taken back by its cancellation handler. Whoever takes it out resumes
///   it, and only after releasing the lock (through ``Resumptions``), because resuming may run
///   the waiting task's code at once, which may take the lock again.
/// - Cancellation: ``Locked/suspend(in:admit:)`` checks `Task.isCancelled` under the lock before
///   entering the list, and a task's flag is set before its handler runs. So a cancellation
///   before entry is seen at entry, and one after finds the entry (or nothing, when it was
///   already served: then the handler does nothing).
package struct PendingList<Output: Sendable, Payload> {
    package typealias Continuation = CheckedContinuation<Output, any Error>

    private var entries: [(id: UInt64, payload: Payload, continuation: Continuation)] = []
    private var lastID: UInt64 = 0

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }

    /// The oldest waiter.
    package var first: (id: UInt64, payload: Payload)? {
        entries.first.map { ($0.id, $0.payload) }
    }

    mutating func makeID() -> UInt64 {
        lastID += 1
        return lastID
    }

    mutating func append(id: UInt64, payload: Payload, continuation: Continuation) {
        entries.append((id, payload, continuation))
    }

    /// Takes the waiter `id` out, if it is still waiting (for its cancellation handler).
    mutating func remove(id: UInt64) -> Continuation? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: index).continuation
    }

    /// Completes the oldest waiter with `result`.
    package mutating func serveFirst(_ result: Result<Output, any Error>, into resumptions: inout Resumptions) {
        resumptions.resume(entries.removeFirst().continuation, with: result)
    }

    /// Fails every waiter with `error` and empties the list.
    package mutating func failAll(_ error: any Error, into resumptions: inout Resumptions) {
        for entry in entries { resumptions.resume(entry.continuation, with: .failure(error)) }
        entries = []
    }
}

extension PendingList where Output == Void, Payload == ArraySlice<UInt8> {
    /// Counts the first `count` bytes still to send of write `id` as sent, and completes the
    /// write once none remain. Does nothing when the write is gone (cancelled or failed while
    /// its bytes were with the OS: they stay sent).
    package mutating func advance(_ id: UInt64, by count: Int, into resumptions: inout Resumptions) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[index].payload = entries[index].payload.dropFirst(count)
        if entries[index].payload.isEmpty {
            resumptions.resume(entries.remove(at: index).continuation, with: .success(()))
        }
    }
}

/// What a waiting call's admission decided, under the lock.
package enum Admission<Output, Payload> {
    /// Answered at once, without waiting.
    case done(Result<Output, any Error>)
    /// Waits in the list with this payload (unless its task is already cancelled).
    case wait(Payload)
}

extension Locked {
    /// Suspends the calling task as a waiter of the list at `list` until it is served, failed or
    /// cancelled (then it throws `CancellationError`). `admit` runs once under the lock, may
    /// change the value and schedule resumptions, and decides whether the call waits.
    package func suspend<Output: Sendable, Payload>(
        in list: WritableKeyPath<Value, PendingList<Output, Payload>> & Sendable,
        admit: (inout Value, inout Resumptions) -> Admission<Output, Payload>
    ) async throws -> Output {
        let id = withLock { $0[keyPath: list].makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: PendingList<Output, Payload>.Continuation) in
                var resumptions = Resumptions()
                withLock { value in
                    switch admit(&value, &resumptions) {
                    case .done(let result):
                        resumptions.resume(continuation, with: result)
                    case .wait where Task.isCancelled:
                        resumptions.resume(continuation, with: .failure(CancellationError()))
                    case .wait(let payload):
                        value[keyPath: list].append(id: id, payload: payload, continuation: continuation)
                    }
                }
                resumptions.run()
            }
        } onCancel: {
            let continuation = withLock { $0[keyPath: list].remove(id: id) }
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// A one-way event that async callers wait for, not cancellably (a descriptor closed, a port
/// released: a caller of `close()` returns only once it is so). Waiters that come after it
/// happened return at once; those before are resumed, exactly once, by ``open(into:)``.
package struct Latch {
    package private(set) var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Opens the latch for good, resuming the waiters after the lock.
    package mutating func open(into resumptions: inout Resumptions) {
        isOpen = true
        for waiter in waiters { resumptions.afterwards { waiter.resume() } }
        waiters = []
    }

    fileprivate mutating func add(_ waiter: CheckedContinuation<Void, Never>) -> Bool {
        if isOpen { return false }
        waiters.append(waiter)
        return true
    }
}

extension Locked {
    /// Returns once the latch at `latch` is open (at once when it already is).
    package func waitUntilOpen(_ latch: WritableKeyPath<Value, Latch>) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !withLock({ $0[keyPath: latch].add(continuation) }) { continuation.resume() }
        }
    }
}

/// Work collected under a lock to run after releasing it: resuming continuations, and calls
/// that take a lock themselves (waking an I/O thread).
package struct Resumptions {
    private var actions: [() -> Void] = []

    package init() {}

    package mutating func resume<Output: Sendable>(
        _ continuation: CheckedContinuation<Output, any Error>, with result: Result<Output, any Error>
    ) {
        actions.append { continuation.resume(with: result) }
    }

    package mutating func afterwards(_ action: @escaping () -> Void) {
        actions.append(action)
    }

    /// Runs everything collected, in order. Call it with no lock held.
    package func run() {
        for action in actions { action() }
    }
}
