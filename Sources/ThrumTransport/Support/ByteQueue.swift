/// A bounded FIFO of bytes between producers and a consumer, where both sides can wait:
/// readers until bytes arrive, writers until there is room. The building block of the in-memory
/// transport and of the receive side of the termios transport.
///
/// Bounded so that a reader that stops reading slows the writer down instead of growing memory.
package final class ByteQueue: @unchecked Sendable {
    private struct State {
        var buffer = ChunkedBytes()
        var readers = PendingList<[UInt8], Void>()
        /// Writes waiting for room, with the bytes they still have to append.
        var writers = PendingList<Void, ArraySlice<UInt8>>()
        /// Thrown by reads once the buffer is empty.
        var readEnd: TransportError?
        /// Thrown by writes.
        var writeEnd: TransportError?
        var onSpace: (@Sendable () -> Void)?

        var count: Int { buffer.count }
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
        // Fast path: bytes (or the end) are already there, so no continuation is needed. When it
        // finds neither, the waiting path below looks again under the lock it waits under.
        var resumptions = Resumptions()
        let ready = state.withLock { state -> Result<[UInt8], TransportError>? in
            if state.count > 0 {
                let chunk = state.buffer.take(upTo: maxChunk)
                refill(&state, &resumptions)
                return .success(chunk)
            }
            return state.readEnd.map { .failure($0) }
        }
        resumptions.run()
        if let ready { return try ready.get() }
        return try await state.suspend(in: \.readers) { state, resumptions in
            if state.count > 0 {
                let chunk = state.buffer.take(upTo: maxChunk)
                refill(&state, &resumptions)
                return .done(.success(chunk))
            }
            if let end = state.readEnd { return .done(.failure(end)) }
            return .wait(())
        }
    }

    // MARK: writing

    /// Appends all of `bytes`, waiting for room as needed.
    package func write(_ bytes: [UInt8]) async throws {
        if bytes.isEmpty {
            if let end = state.withLock({ $0.writeEnd }) { throw end }
            return
        }
        // Fast path: no writer waits and all of `bytes` fits. Otherwise nothing is appended here,
        // and the waiting path below decides under the lock it waits under.
        var resumptions = Resumptions()
        let done = try state.withLock { state -> Bool in
            if let end = state.writeEnd { throw end }
            guard state.writers.isEmpty, capacity - state.count >= bytes.count else { return false }
            state.buffer.append(bytes[...])
            serveReaders(&state, &resumptions)
            return true
        }
        resumptions.run()
        if done { return }
        try await state.suspend(in: \.writers) { state, resumptions in
            if let end = state.writeEnd { return .done(.failure(end)) }
            var remaining = bytes[...]
            if state.writers.isEmpty {
                // Readers may take bytes as they are appended, making room for more.
                repeat {
                    let accepted = min(remaining.count, capacity - state.count)
                    state.buffer.append(remaining.prefix(accepted))
                    remaining = remaining.dropFirst(accepted)
                    serveReaders(&state, &resumptions)
                } while !remaining.isEmpty && state.count < capacity
            }
            return remaining.isEmpty ? .done(.success(())) : .wait(remaining)
        }
    }

    /// Appends as much of `bytes` as fits without waiting; returns how many were taken.
    /// After the queue ended, everything is "taken" (and dropped) so producers do not stall.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        var resumptions = Resumptions()
        let taken = state.withLock { state -> Int in
            if state.readEnd != nil || state.writeEnd != nil { return bytes.count }
            guard state.writers.isEmpty else { return 0 }
            let accepted = min(bytes.count, capacity - state.count)
            state.buffer.append(UnsafeRawBufferPointer(rebasing: bytes[..<accepted]))
            serveReaders(&state, &resumptions)
            return accepted
        }
        resumptions.run()
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
        var resumptions = Resumptions()
        state.withLock { state in
            if state.readEnd == nil { state.readEnd = readError }
            if state.writeEnd == nil { state.writeEnd = writeError }
            if discardBuffered { state.buffer.removeAll() }
            // Waiting readers exist only while the buffer is empty (appending serves them).
            if state.count == 0 { state.readers.failAll(state.readEnd!, into: &resumptions) }
            state.writers.failAll(state.writeEnd!, into: &resumptions)
            state.onSpace = nil
        }
        resumptions.run()
    }

    // MARK: internals (called with the lock held; resumptions run after)

    /// Moves bytes of waiting writers into the freed room, in order.
    private func refill(_ state: inout State, _ resumptions: inout Resumptions) {
        while let (id, remaining) = state.writers.first, state.count < capacity {
            let accepted = min(remaining.count, capacity - state.count)
            state.buffer.append(remaining.prefix(accepted))
            state.writers.advance(id, by: accepted, into: &resumptions)
        }
        if let onSpace = state.onSpace, state.count < capacity {
            resumptions.afterwards(onSpace)
        }
    }

    /// Hands chunks to waiting readers while there are bytes.
    private func serveReaders(_ state: inout State, _ resumptions: inout Resumptions) {
        while !state.readers.isEmpty, state.count > 0 {
            state.readers.serveFirst(.success(state.buffer.take(upTo: maxChunk)), into: &resumptions)
            refill(&state, &resumptions)
        }
    }
}
