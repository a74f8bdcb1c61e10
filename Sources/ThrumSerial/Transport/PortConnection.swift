import Foundation
import ThrumTransport

/// An open libserialport port served by two dedicated threads, as libserialport's thread rules
/// ask: a reader (`sp_wait`, `sp_nonblocking_read`, `sp_input_waiting`) and a writer
/// (`sp_blocking_write`). Async callers only touch the shared state; no libserialport call ever
/// runs on Swift's cooperative pool. The port is closed and freed by the last thread to leave,
/// once the owner closed (or dropped) the connection.
final class PortConnection: @unchecked Sendable {
    typealias ReadContinuation = CheckedContinuation<[UInt8], any Error>
    typealias WriteContinuation = CheckedContinuation<Void, any Error>

    struct PendingWrite {
        var id: UInt64
        var bytes: [UInt8]
        var offset: Int
        var continuation: WriteContinuation
    }

    struct State {
        var received: [UInt8] = []
        var head = 0
        var readers: [(id: UInt64, continuation: ReadContinuation)] = []
        /// Reads throw this once the received bytes are consumed (the line hung up, a read failed).
        var inputEnd: TransportError?
        var writes: [PendingWrite] = []
        /// Writes throw this (the device is gone, a write failed).
        var writeEnd: TransportError?
        var closing = false
        var runningThreads = 2
        var released = false
        var releaseWaiters: [CheckedContinuation<Void, Never>] = []
        var nextID: UInt64 = 0

        var bufferedCount: Int { received.count - head }

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    let device: String
    let port: PortHandle
    let events: EventSetHandle
    let descriptor: Int32
    let releaseExclusive: Bool
    let capacity: Int
    let calls: LibSerialPortCalls
    let tuning: SerialPortTuning
    let monitor = Monitor(State())

    /// Takes ownership of the open, configured `port` and its event set, and starts the threads.
    init(device: String, port: PortHandle, events: EventSetHandle, descriptor: Int32, releaseExclusive: Bool,
         receiveBufferSize: Int, calls: LibSerialPortCalls, tuning: SerialPortTuning) {
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
        let id = monitor.withLock { $0.makeID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: ReadContinuation) in
                let outcome = monitor.withLock { state -> Result<[UInt8], any Error>? in
                    if state.closing { return .failure(closedError) }
                    if state.bufferedCount > 0 { return .success(take(&state)) }
                    if let end = state.inputEnd { return .failure(end) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.readers.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation = monitor.withLock { state -> ReadContinuation? in
                guard let index = state.readers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.readers.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    func write(_ bytes: [UInt8]) async throws {
        guard !bytes.isEmpty else {
            if let end = monitor.withLock({ $0.closing ? closedError : $0.writeEnd }) { throw end }
            return
        }
        let id = monitor.withLock { $0.makeID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: WriteContinuation) in
                let refusal = monitor.withLock { state -> (any Error)? in
                    if state.closing { return closedError }
                    if let end = state.writeEnd { return end }
                    if Task.isCancelled { return CancellationError() }
                    state.writes.append(PendingWrite(id: id, bytes: bytes, offset: 0, continuation: continuation))
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) }
            }
        } onCancel: {
            // Bytes already handed to the OS stay sent; the rest is dropped.
            let continuation = monitor.withLock { state -> WriteContinuation? in
                guard let index = state.writes.firstIndex(where: { $0.id == id }) else { return nil }
                return state.writes.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Closes and waits until the threads left and the port was closed and freed.
    func close() async {
        beginClosing()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released = monitor.withLock { state -> Bool in
                if !state.released { state.releaseWaiters.append(continuation) }
                return state.released
            }
            if released { continuation.resume() }
        }
    }

    /// Fails pending reads and writes with `.closed` and tells the threads to leave.
    func beginClosing() {
        let pending = monitor.withLock { state -> (readers: [ReadContinuation], writes: [WriteContinuation])? in
            guard !state.closing else { return nil }
            state.closing = true
            defer {
                state.readers = []
                state.writes = []
                state.received = []
                state.head = 0
            }
            return (state.readers.map(\.continuation), state.writes.map(\.continuation))
        }
        guard let pending else { return }
        let error = closedError
        pending.readers.forEach { $0.resume(throwing: error) }
        pending.writes.forEach { $0.resume(throwing: error) }
    }

    // MARK: shared by the threads

    /// A chunk of the received bytes for one reader (called under the lock).
    func take(_ state: inout State) -> [UInt8] {
        let size = min(state.bufferedCount, tuning.readChunk)
        let chunk = Array(state.received[state.head ..< state.head + size])
        state.head += size
        if state.head == state.received.count {
            state.received.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 4096, state.head * 2 >= state.received.count {
            state.received.removeFirst(state.head)
            state.head = 0
        }
        return chunk
    }

    /// Input is over: readers get what is buffered, then `error`; writes fail with `error` too
    /// when it means the device is gone.
    func endInput(_ error: TransportError) {
        let (readers, writes) = monitor.withLock { state -> ([ReadContinuation], [WriteContinuation]) in
            if state.inputEnd == nil { state.inputEnd = error }
            var writes: [WriteContinuation] = []
            if error.reason == .disconnected, state.writeEnd == nil {
                state.writeEnd = error
                writes = state.writes.map(\.continuation)
                state.writes = []
            }
            guard state.bufferedCount == 0 else { return ([], writes) }
            defer { state.readers = [] }
            return (state.readers.map(\.continuation), writes)
        }
        readers.forEach { $0.resume(throwing: error) }
        writes.forEach { $0.resume(throwing: error) }
    }

    /// Writes are over: pending and later writes fail with `error`.
    func endWrites(_ error: TransportError) {
        let writes = monitor.withLock { state -> [WriteContinuation] in
            if state.writeEnd == nil { state.writeEnd = error }
            defer { state.writes = [] }
            return state.writes.map(\.continuation)
        }
        writes.forEach { $0.resume(throwing: error) }
    }

    private func threadExited() {
        let last = monitor.wait(until: { _ in true }) { state -> Bool in
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
        let waiters = monitor.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.releaseWaiters = [] }
            return state.releaseWaiters
        }
        waiters.forEach { $0.resume() }
    }
}
