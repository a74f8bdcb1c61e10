/// A bounded FIFO of bytes between producers and a consumer, where both sides can wait:
/// readers until bytes arrive, writers until there is room. The building block of the in-memory
/// transport and of the receive side of the termios transport.
///
/// Bounded so that a reader that stops reading slows the writer down instead of growing memory.
package final class ByteQueue: @unchecked Sendable {
    private typealias ReadContinuation = CheckedContinuation<[UInt8], any Error>
    private typealias WriteContinuation = CheckedContinuation<Void, any Error>

    private struct PendingWrite {
        var id: UInt64
        var remaining: ArraySlice<UInt8>
        var continuation: WriteContinuation
    }

    private struct State {
        var buffer: [UInt8] = []
        var head = 0
        var readers: [(id: UInt64, continuation: ReadContinuation)] = []
        var writers: [PendingWrite] = []
        /// Thrown by reads once the buffer is empty.
        var readEnd: TransportError?
        /// Thrown by writes.
        var writeEnd: TransportError?
        var nextID: UInt64 = 0
        var onSpace: (@Sendable () -> Void)?

        var count: Int { buffer.count - head }
    }

    let capacity: Int
    let maxChunk: Int
    private let state = Locked(State())

    package init(capacity: Int, maxChunk: Int = 64 * 1024) {
        precondition(capacity > 0 && maxChunk > 0)
        self.capacity = capacity
        self.maxChunk = maxChunk
    }

    /// Called, off the lock, each time a read frees room (the termios I/O thread wakes up on it).
    func setSpaceHandler(_ handler: (@Sendable () -> Void)?) {
        state.withLock { $0.onSpace = handler }
    }

    var bufferedCount: Int { state.withLock { $0.count } }
    var freeSpace: Int { state.withLock { capacity - $0.count } }

    // MARK: reading

    package func read() async throws -> [UInt8] {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ReadContinuation) in
                var resumptions: [() -> Void] = []
                state.withLock { state in
                    if state.count > 0 {
                        let chunk = take(&state)
                        resumptions = refill(&state)
                        resumptions.append { continuation.resume(returning: chunk) }
                    } else if let end = state.readEnd {
                        resumptions = [{ continuation.resume(throwing: end) }]
                    } else if Task.isCancelled {
                        resumptions = [{ continuation.resume(throwing: CancellationError()) }]
                    } else {
                        state.readers.append((id, continuation))
                    }
                }
                resumptions.forEach { $0() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> ReadContinuation? in
                guard let index = state.readers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.readers.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    // MARK: writing

    /// Appends all of `bytes`, waiting for room as needed.
    package func write(_ bytes: [UInt8]) async throws {
        if bytes.isEmpty {
            if let end = state.withLock({ $0.writeEnd }) { throw end }
            return
        }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: WriteContinuation) in
                var resumptions: [() -> Void] = []
                state.withLock { state in
                    if let end = state.writeEnd {
                        resumptions = [{ continuation.resume(throwing: end) }]
                        return
                    }
                    var remaining = bytes[...]
                    if state.writers.isEmpty {
                        // Readers may take bytes as they are appended, making room for more.
                        repeat {
                            let accepted = min(remaining.count, capacity - state.count)
                            state.buffer += remaining.prefix(accepted)
                            remaining = remaining.dropFirst(accepted)
                            resumptions += serveReaders(&state)
                        } while !remaining.isEmpty && state.count < capacity
                    }
                    if remaining.isEmpty {
                        resumptions.append { continuation.resume() }
                    } else if Task.isCancelled {
                        resumptions.append { continuation.resume(throwing: CancellationError()) }
                    } else {
                        state.writers.append(PendingWrite(id: id, remaining: remaining, continuation: continuation))
                    }
                }
                resumptions.forEach { $0() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> WriteContinuation? in
                guard let index = state.writers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.writers.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Appends as much of `bytes` as fits without waiting; returns how many were taken.
    /// After the queue ended, everything is "taken" (and dropped) so producers do not stall.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        var resumptions: [() -> Void] = []
        let taken = state.withLock { state -> Int in
            if state.readEnd != nil || state.writeEnd != nil { return bytes.count }
            guard state.writers.isEmpty else { return 0 }
            let accepted = min(bytes.count, capacity - state.count)
            state.buffer += bytes.prefix(accepted)
            resumptions = serveReaders(&state)
            return accepted
        }
        resumptions.forEach { $0() }
        return taken
    }

    // MARK: ending

    /// The producing side is finished: readers get what is buffered, then `readers`;
    /// pending and later writes fail with `writers`.
    package func finishWriting(readers readError: TransportError, writers writeError: TransportError) {
        end(readError: readError, writeError: writeError, discardBuffered: false)
    }

    /// The consuming side is gone: buffered bytes are dropped, pending and later reads fail with
    /// `readers`, pending and later writes with `writers`.
    package func closeReading(readers readError: TransportError, writers writeError: TransportError) {
        end(readError: readError, writeError: writeError, discardBuffered: true)
    }

    private func end(readError: TransportError, writeError: TransportError, discardBuffered: Bool) {
        var resumptions: [() -> Void] = []
        state.withLock { state in
            if state.readEnd == nil { state.readEnd = readError }
            if state.writeEnd == nil { state.writeEnd = writeError }
            if discardBuffered {
                state.buffer = []
                state.head = 0
            }
            let readEnd = state.readEnd!, writeEnd = state.writeEnd!
            if state.count == 0 {
                for reader in state.readers {
                    resumptions.append { reader.continuation.resume(throwing: readEnd) }
                }
                state.readers = []
            }
            for writer in state.writers {
                resumptions.append { writer.continuation.resume(throwing: writeEnd) }
            }
            state.writers = []
            state.onSpace = nil
        }
        resumptions.forEach { $0() }
    }

    // MARK: internals (called with the lock held; return the resumptions to run after)

    private func take(_ state: inout State) -> [UInt8] {
        let size = min(state.count, maxChunk)
        let chunk = Array(state.buffer[state.head ..< state.head + size])
        state.head += size
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 4096, state.head * 2 >= state.buffer.count {
            state.buffer.removeFirst(state.head)
            state.head = 0
        }
        return chunk
    }

    /// Moves bytes of waiting writers into the freed room, in order.
    private func refill(_ state: inout State) -> [() -> Void] {
        var resumptions: [() -> Void] = []
        while !state.writers.isEmpty, state.count < capacity {
            let accepted = min(state.writers[0].remaining.count, capacity - state.count)
            state.buffer += state.writers[0].remaining.prefix(accepted)
            state.writers[0].remaining = state.writers[0].remaining.dropFirst(accepted)
            if state.writers[0].remaining.isEmpty {
                let continuation = state.writers.removeFirst().continuation
                resumptions.append { continuation.resume() }
            }
        }
        if let onSpace = state.onSpace, state.count < capacity {
            resumptions.append(onSpace)
        }
        return resumptions
    }

    /// Hands chunks to waiting readers while there are bytes.
    private func serveReaders(_ state: inout State) -> [() -> Void] {
        var resumptions: [() -> Void] = []
        while !state.readers.isEmpty, state.count > 0 {
            let reader = state.readers.removeFirst()
            let chunk = take(&state)
            resumptions.append { reader.continuation.resume(returning: chunk) }
            resumptions += refill(&state)
        }
        return resumptions
    }
}
