import ThrumTransport

/// Wraps a transport and makes its line misbehave, reproducibly: drops, corruption, duplicates,
/// garbage bursts, latency with jitter and a throttled line rate, each direction with its own
/// ``FaultProfile``, every random choice drawn from `seed`, every delay measured on `clock`
/// (a ``ManualClock`` in tests, so nothing ever sleeps on wall-clock time).
///
/// Outbound faults act on what this end writes, in write order, so they are fully determined by
/// the seed and the writes. Inbound faults act on the chunks read from the wrapped transport;
/// whole-chunk faults then depend on how the wrapped transport splits its input, so prefer
/// outbound faults on each end (see ``pair(aToB:bToA:seed:clock:capacity:)``) when exact
/// reproducibility matters.
public final class FaultInjectingTransport<C: Clock>: ByteTransport, @unchecked Sendable where C.Duration == Duration {
    public let name: String
    private let inner: any ByteTransport
    private let outbound: FaultyLine<C>
    private let inbound: FaultyLine<C>?
    private let received: ByteQueue?
    private let pumpTask: Locked<Task<Void, Never>?> = Locked(nil)
    private let closed = Locked(false)

    public init(
        wrapping inner: any ByteTransport,
        outbound: FaultProfile = .none,
        inbound: FaultProfile = .none,
        seed: UInt64,
        clock: C
    ) throws(TransportError) {
        try outbound.validate()
        try inbound.validate()
        self.inner = inner
        self.name = "faulty(\(inner.name))"
        self.outbound = FaultyLine(profile: outbound, seed: SeededGenerator.derive(seed, stream: 1), clock: clock) {
            bytes in
            try await inner.write(bytes)
        }
        if inbound == .none {
            self.inbound = nil
            self.received = nil
        } else {
            let queue = ByteQueue(capacity: 64 * 1024)
            self.received = queue
            self.inbound = FaultyLine(profile: inbound, seed: SeededGenerator.derive(seed, stream: 2), clock: clock) {
                bytes in
                try await queue.write(bytes)
            }
        }
    }

    /// Two connected in-memory ends whose lines misbehave as given, one profile per direction.
    public static func pair(
        aToB: FaultProfile, bToA: FaultProfile, seed: UInt64, clock: C, capacity: Int = 64 * 1024
    ) throws(TransportError) -> (FaultInjectingTransport, FaultInjectingTransport) {
        let (a, b) = InMemoryTransport.makePair(capacity: capacity)
        return (
            try FaultInjectingTransport(
                wrapping: a, outbound: aToB, seed: SeededGenerator.derive(seed, stream: 10), clock: clock),
            try FaultInjectingTransport(
                wrapping: b, outbound: bToA, seed: SeededGenerator.derive(seed, stream: 11), clock: clock)
        )
    }

    /// What the outbound line did so far.
    public var outboundStatistics: FaultStatistics { outbound.statistics }
    /// What the inbound line did so far (all zero when no inbound profile was given).
    public var inboundStatistics: FaultStatistics { inbound?.statistics ?? FaultStatistics() }

    public func read() async throws -> [UInt8] {
        guard let received else { return try await inner.read() }
        startPumpIfNeeded()
        return try await received.read()
    }

    public func write(_ bytes: [UInt8]) async throws {
        if closed.withLock({ $0 }) { throw TransportError(.closed, device: name) }
        try await outbound.send(bytes)
    }

    /// Waits until every delayed outbound byte has been delivered (a test's "flush").
    public func drain() async {
        await outbound.drain()
    }

    public func close() async {
        let first = closed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        let closedError = TransportError(.closed, device: name)
        outbound.stop(with: closedError)
        inbound?.stop(with: closedError)
        received?.closeReading(readers: closedError, writers: closedError)
        pumpTask.withLock { $0 }?.cancel()
        await inner.close()
    }

    /// Inbound faults need a task that reads the wrapped transport and feeds the faulty line.
    private func startPumpIfNeeded() {
        guard let inbound, let received else { return }
        pumpTask.withLock { task in
            guard task == nil else { return }
            let inner = self.inner
            task = Task {
                do {
                    while true {
                        let chunk = try await inner.read()
                        try await inbound.send(chunk)
                    }
                } catch let error as TransportError {
                    await inbound.drain()
                    received.finishWriting(readers: error, writers: error)
                } catch {
                    received.finishWriting(
                        readers: TransportError(.closed, device: inner.name),
                        writers: TransportError(.closed, device: inner.name))
                }
            }
        }
    }
}

extension SeededGenerator {
    /// An independent seed for one stream of a seeded component (per direction, per end).
    static func derive(_ seed: UInt64, stream: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return generator.next()
    }
}
