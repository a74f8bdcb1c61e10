import Foundation
import ThrumTransport

/// An open libserialport port served by two dedicated threads, as libserialport's thread rules
/// ask: a reader (`sp_wait`, `sp_nonblocking_read`, `sp_input_waiting`) and a writer
/// (`sp_blocking_write`). Async callers only touch the shared state; no libserialport call ever
/// runs on Swift's cooperative pool. The port is closed and freed by the last thread to leave,
/// once the owner closed (or dropped) the connection.
final class PortConnection: @unchecked Sendable {
    /// Shared by the async side and the two threads, which sleep on it (`Locked.wait`) until
    /// the async side changes something.
    struct State {
        var received = ChunkedBytes()
        var readers = PendingList<[UInt8], Void>()
        /// Reads throw this once the received bytes are consumed (the line hung up, a read failed).
        var inputEnd: TransportError?
        /// Writes waiting for the writer thread, with the bytes still to send.
        var writes = PendingList<Void, ArraySlice<UInt8>>()
        /// Writes throw this (the device is gone, a write failed).
        var writeEnd: TransportError?
        var closing = false
        var runningThreads = 2
        /// Open once the port was closed and freed.
        var released = Latch()

        var bufferedCount: Int { received.count }
    }

    let device: String
    let port: PortHandle
    let events: EventSetHandle
    let descriptor: Int32
    let releaseExclusive: Bool
    let capacity: Int
    let calls: LibSerialPortCalls
    let tuning: SerialPortTuning
    let state = Locked(State())

    /// Takes ownership of the open, configured `port` and its event set, and starts the threads.
    init(
        device: String, port: PortHandle, events: EventSetHandle, descriptor: Int32, releaseExclusive: Bool,
        receiveBufferSize: Int, calls: LibSerialPortCalls, tuning: SerialPortTuning
    ) {
        self.device = device
        self.port = port
        self.events = events
        self.descriptor = descriptor
        self.releaseExclusive = releaseExclusive
        self.capacity = receiveBufferSize
        self.calls = calls
        self.tuning = tuning
        startThread(named: "thrum-serial-read") { $0.runReader() }
        startThread(named: "thrum-serial-write") { $0.runWriter() }
    }

    private func startThread(named name: String, _ body: @escaping @Sendable (PortConnection) -> Void) {
        let thread = Thread { [self] in
            body(self)
            threadExited()
        }
        thread.name = name
        thread.start()
    }

    var closedError: TransportError { TransportError(.closed, device: device) }

    // MARK: async side

    func read() async throws -> [UInt8] {
        try await state.suspend(in: \.readers) { state, _ in
            if state.closing { return .done(.failure(closedError)) }
            if state.bufferedCount > 0 { return .done(.success(take(&state))) }
            if let end = state.inputEnd { return .done(.failure(end)) }
            return .wait(())
        }
    }

    func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else {
            if let end = state.withLock({ $0.closing ? closedError : $0.writeEnd }) { throw end }
            return
        }
        // Cancelled, a write's bytes already handed to the OS stay sent; the rest is dropped.
        try await state.suspend(in: \.writes) { state, _ in
            if state.closing { return .done(.failure(closedError)) }
            if let end = state.writeEnd { return .done(.failure(end)) }
            return .wait(bytes[...])
        }
    }

    /// Closes and waits until the threads left and the port was closed and freed.
    func close() async {
        beginClosing()
        await state.waitUntilOpen(\.released)
    }

    /// Fails pending reads and writes with `.closed` and tells the threads to leave.
    func beginClosing() {
        var resumptions = Resumptions()
        state.withLock { state in
            guard !state.closing else { return }
            state.closing = true
            state.readers.failAll(closedError, into: &resumptions)
            state.writes.failAll(closedError, into: &resumptions)
            state.received.removeAll()
        }
        resumptions.run()
    }

    // MARK: shared by the threads

    /// A chunk of the received bytes for one reader (called under the lock).
    func take(_ state: inout State) -> [UInt8] {
        state.received.take(upTo: tuning.readChunk)
    }

    /// Input is over: readers get what is buffered, then `error`; writes fail with `error` too
    /// when it means the device is gone.
    func endInput(_ error: TransportError) {
        var resumptions = Resumptions()
        state.withLock { state in
            if state.inputEnd == nil { state.inputEnd = error }
            // Waiting readers exist only while nothing is buffered (delivering serves them).
            if state.bufferedCount == 0 { state.readers.failAll(error, into: &resumptions) }
            if error.reason == .disconnected, state.writeEnd == nil {
                state.writeEnd = error
                state.writes.failAll(error, into: &resumptions)
            }
        }
        resumptions.run()
    }

    /// Writes are over: pending and later writes fail with `error`.
    func endWrites(_ error: TransportError) {
        var resumptions = Resumptions()
        state.withLock { state in
            if state.writeEnd == nil { state.writeEnd = error }
            state.writes.failAll(error, into: &resumptions)
        }
        resumptions.run()
    }

    private func threadExited() {
        let last = state.wait(until: { _ in true }) { state -> Bool in
            state.runningThreads -= 1
            return state.runningThreads == 0
        }
        if last { release() }
    }

    /// Closes and frees the port. Runs on the last thread to leave, which only leaves once
    /// closing began, so nothing else uses the port any more.
    private func release() {
        calls.freeEventSet(events)
        if releaseExclusive { try? calls.setExclusive(descriptor, false) }
        try? calls.close(port)  // nothing useful to do if closing fails: the port is gone either way
        calls.freePort(port)
        var resumptions = Resumptions()
        state.withLock { $0.released.open(into: &resumptions) }
        resumptions.run()
    }
}
