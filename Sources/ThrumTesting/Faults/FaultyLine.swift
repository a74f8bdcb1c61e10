import ThrumTransport

/// One direction of a faulty line: applies a ``FaultProfile`` to each chunk sent through it and
/// hands the result to `sink`, at once or, when timing is shaped, at the instant computed from
/// the line rate, latency and jitter on the injected clock.
final class FaultyLine<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    private struct Segment {
        var bytes: [UInt8]
        var deliverAt: C.Instant
    }

    private struct State {
        var generator: SeededGenerator
        var statistics = FaultStatistics()
        /// When the line finishes sending what is queued.
        var lineFreeAt: C.Instant?
        var lastDeliveryAt: C.Instant?
        var queue: [Segment] = []
        var queuedBytes = 0
        var roomWaiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Senders asleep on the clock until the line has room; woken by `stop`.
        var stopWaiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var deliveryWaiter: CheckedContinuation<Void, Never>?
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        var deliveryTask: Task<Void, Never>?
        var end: (any Error)?
        var nextID: UInt64 = 0
    }

    let profile: FaultProfile
    private let clock: C
    private let sink: @Sendable ([UInt8]) async throws -> Void
    private let state: Locked<State>
    /// Undelivered bytes allowed when only latency (not a line rate) holds bytes back.
    private let inFlightLimit = 1 << 20

    init(profile: FaultProfile, seed: UInt64, clock: C, sink: @escaping @Sendable ([UInt8]) async throws -> Void) {
        self.profile = profile
        self.clock = clock
        self.sink = sink
        self.state = Locked(State(generator: SeededGenerator(seed: seed)))
    }

    var statistics: FaultStatistics { state.withLock { $0.statistics } }

    /// Sends `bytes` through the line. Returns when they are "handed to the OS": at once on an
    /// unshaped line (after the sink took them), else when they fit in the line's buffer.
    func send(_ bytes: [UInt8]) async throws {
        let pieces = try state.withLock { state -> [[UInt8]] in
            if let end = state.end { throw end }
            return applyFaults(to: bytes, state: &state)
        }
        guard profile.shapesTiming else {
            for piece in pieces { try await sink(piece) }
            return
        }
        for piece in pieces {
            var start = 0
            while start < piece.count {
                let end = profile.baudRate == nil ? piece.count : min(piece.count, start + profile.segmentSize)
                try await enqueue(Array(piece[start..<end]))
                start = end
            }
        }
    }

    /// Waits until every queued segment was delivered (or the line ended).
    func drain() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.queue.isEmpty || state.end != nil { return true }
                state.drainWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Stops delivering; queued bytes are lost (as when a port is closed) and waiting senders fail.
    func stop(with error: any Error) {
        let (task, waiters, delivery, drains) = state.withLock { state in
            if state.end == nil { state.end = error }
            state.queue = []
            state.queuedBytes = 0
            defer {
                state.roomWaiters = []
                state.stopWaiters = []
                state.deliveryWaiter = nil
                state.drainWaiters = []
                state.deliveryTask = nil
            }
            return (state.deliveryTask, state.roomWaiters + state.stopWaiters, state.deliveryWaiter, state.drainWaiters)
        }
        task?.cancel()
        let end = state.withLock { $0.end! }
        for waiter in waiters { waiter.continuation.resume(throwing: end) }
        delivery?.resume()
        drains.forEach { $0.resume() }
    }

    // MARK: faults

    private func applyFaults(to bytes: [UInt8], state: inout State) -> [[UInt8]] {
        state.statistics.chunks += 1
        state.statistics.bytesIn += bytes.count
        guard profile.altersBytes else {
            state.statistics.bytesOut += bytes.count
            return bytes.isEmpty ? [] : [bytes]
        }
        if state.generator.chance(profile.dropChunk) {
            state.statistics.chunksDropped += 1
            return []
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if state.generator.chance(profile.dropByte) {
                state.statistics.bytesDropped += 1
            } else if state.generator.chance(profile.corruptByte) {
                state.statistics.bytesCorrupted += 1
                output.append(byte ^ UInt8.random(in: 1...255, using: &state.generator))
            } else {
                output.append(byte)
            }
        }
        if state.generator.chance(profile.garbageBurst) {
            let length = Int.random(in: profile.garbageLength, using: &state.generator)
            let position = Int.random(in: 0...output.count, using: &state.generator)
            let garbage = (0..<length).map { _ in UInt8.random(in: 0...255, using: &state.generator) }
            output.insert(contentsOf: garbage, at: position)
            state.statistics.garbageBursts += 1
            state.statistics.garbageBytes += length
        }
        var pieces = output.isEmpty ? [] : [output]
        if state.generator.chance(profile.duplicateChunk), !output.isEmpty {
            state.statistics.chunksDuplicated += 1
            pieces.append(output)
        }
        state.statistics.bytesOut += pieces.reduce(0) { $0 + $1.count }
        return pieces
    }

    // MARK: timing

    private func enqueue(_ segment: [UInt8]) async throws {
        try await waitForRoom(segment.count)
        let (resume, startDelivery) = try state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            if let end = state.end { throw end }
            let now = clock.now
            let byteTime = profile.byteTime
            let lineStart = max(now, state.lineFreeAt ?? now)
            let lineEnd = lineStart.advanced(by: byteTime * segment.count)
            state.lineFreeAt = lineEnd
            var deliverAt = lineEnd.advanced(by: profile.latency)
            if profile.jitter > .zero {
                let jitterNanoseconds = nanoseconds(profile.jitter)
                deliverAt = deliverAt.advanced(
                    by: .nanoseconds(Int64.random(in: 0...jitterNanoseconds, using: &state.generator)))
            }
            if let last = state.lastDeliveryAt, deliverAt < last { deliverAt = last }  // a line never reorders
            state.lastDeliveryAt = deliverAt
            state.queue.append(Segment(bytes: segment, deliverAt: deliverAt))
            state.queuedBytes += segment.count
            let waiter = state.deliveryWaiter
            state.deliveryWaiter = nil
            return (waiter, state.deliveryTask == nil)
        }
        if startDelivery { startDeliveryTask() }
        resume?.resume()
    }

    /// A paced line holds at most `bufferSize` untransmitted bytes: wait on the clock until the
    /// backlog has drained enough. Undelivered bytes are capped too (a stalled reader).
    private func waitForRoom(_ count: Int) async throws {
        if profile.baudRate != nil {
            let byteTime = profile.byteTime
            let room = max(0, profile.bufferSize - count)
            let wakeAt = state.withLock { state -> C.Instant? in
                guard let lineFreeAt = state.lineFreeAt else { return nil }
                let at = lineFreeAt.advanced(by: .zero - byteTime * room)
                return at > clock.now ? at : nil
            }
            if let wakeAt { try await sleepUnlessStopped(until: wakeAt) }
        }
        // Either way, a reader that stops reading stalls delivery; cap what waits for it.
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let verdict = state.withLock { state -> Result<Bool, any Error> in
                    if let end = state.end { return .failure(end) }
                    if state.queuedBytes + count <= inFlightLimit || state.queue.isEmpty { return .success(true) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.roomWaiters.append((id, continuation))
                    return .success(false)
                }
                switch verdict {
                case .success(true): continuation.resume()
                case .success(false): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.roomWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.roomWaiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Sleeps on the clock, but returns early (throwing the line's end) when the line stops,
    /// so closing never leaves a sender asleep on a clock that nobody advances.
    private func sleepUnlessStopped(until deadline: C.Instant) async throws {
        let clock = self.clock
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(until: deadline, tolerance: nil) }
            group.addTask { [self] in try await waitUntilStopped() }
            defer { group.cancelAll() }
            try await group.next()
        }
        if let end = state.withLock({ $0.end }) { throw end }
    }

    private func waitUntilStopped() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let verdict = state.withLock { state -> (any Error)? in
                    if let end = state.end { return end }
                    if Task.isCancelled { return CancellationError() }
                    state.stopWaiters.append((id, continuation))
                    return nil
                }
                if let verdict { continuation.resume(throwing: verdict) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.stopWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.stopWaiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func startDeliveryTask() {
        let task = Task { [self] in await deliver() }
        let stale = state.withLock { state -> Bool in
            if state.end != nil || state.deliveryTask != nil { return true }
            state.deliveryTask = task
            return false
        }
        if stale { task.cancel() }
    }

    /// Delivers queued segments at their instants, in order, until stopped.
    private func deliver() async {
        while !Task.isCancelled {
            let next = state.withLock { state -> Segment? in state.queue.first }
            guard let next else {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if !state.queue.isEmpty || state.end != nil { return true }
                        state.deliveryWaiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
                if state.withLock({ $0.end != nil }) { return }
                continue
            }
            do {
                try await clock.sleep(until: next.deliverAt, tolerance: nil)
            } catch {
                return  // cancelled: the line was stopped
            }
            // The segment stays at the head until the sink took it, so `drain` cannot return early.
            if state.withLock({ $0.end != nil }) { return }
            do {
                try await sink(next.bytes)
            } catch {
                stop(with: error)
                return
            }
            let (stillRunning, waiters, drains) = state.withLock {
                state -> (Bool, [CheckedContinuation<Void, any Error>], [CheckedContinuation<Void, Never>]) in
                guard state.end == nil, !state.queue.isEmpty else { return (false, [], []) }
                state.queue.removeFirst()
                state.queuedBytes -= next.bytes.count
                let waiters = state.queuedBytes < inFlightLimit ? state.roomWaiters.map(\.continuation) : []
                if !waiters.isEmpty { state.roomWaiters = [] }
                let drains = state.queue.isEmpty ? state.drainWaiters : []
                if state.queue.isEmpty { state.drainWaiters = [] }
                return (true, waiters, drains)
            }
            guard stillRunning else { return }
            waiters.forEach { $0.resume() }
            drains.forEach { $0.resume() }
        }
    }

    private func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
