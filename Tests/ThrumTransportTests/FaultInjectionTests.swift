import PropertyBased
import Testing
import ThrumTesting

@testable import ThrumTransport

/// Writes `chunks` through `a` while `b` collects everything, then closes `a` so `b` ends.
private func transfer(_ chunks: [[UInt8]], from a: any ByteTransport, to b: any ByteTransport) async throws -> [UInt8] {
    async let received: [UInt8] = {
        var all: [UInt8] = []
        for try await chunk in b.chunks { all += chunk }
        return all
    }()
    for chunk in chunks { try await a.write(chunk) }
    await a.close()
    return try await received
}

private func chunks(count: Int, size: Int, seed: UInt64) -> [[UInt8]] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) } }
}

@Suite(.timeLimit(.minutes(5))) struct FaultInjectionTests {
    @Test(
        "with no faults, the fault-injection transport passes the conformance checks",
        arguments: TransportConformance.checks)
    func conformsWithoutFaults(_ check: TransportConformance.Check) async throws {
        try await check.run {
            let clock = ManualClock()
            let (a, b) = InMemoryTransport.makePair(capacity: 4096)
            return (
                try FaultInjectingTransport(wrapping: a, seed: 1, clock: clock),
                try FaultInjectingTransport(wrapping: b, seed: 2, clock: clock)
            )
        }
    }

    @Test("fault statistics match the configured rates for a fixed seed")
    func statisticsMatchRates() async throws {
        let profile = FaultProfile(
            dropChunk: 0.05, dropByte: 0.002, corruptByte: 0.01,
            duplicateChunk: 0.03, garbageBurst: 0.04, garbageLength: 2...10)
        let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: 42, clock: ManualClock())
        let sent = chunks(count: 20_000, size: 32, seed: 7)
        let received = try await transfer(sent, from: a, to: b)
        let stats = a.outboundStatistics

        #expect(stats.chunks == 20_000)
        #expect(stats.bytesIn == 640_000)
        #expect(stats.bytesOut == received.count)

        // Each count is binomial; 5 standard deviations is a bound a correct injector never
        // crosses for this seed, and a wrong rate (e.g. doubled) would cross at once.
        func expectRate(_ observed: Int, trials: Int, rate: Double, _ what: String) {
            let mean = Double(trials) * rate
            let deviation = (Double(trials) * rate * (1 - rate)).squareRoot()
            #expect(
                abs(Double(observed) - mean) <= 5 * deviation,
                "\(what): \(observed) of \(trials), expected about \(mean)")
        }
        let kept = stats.chunks - stats.chunksDropped
        expectRate(stats.chunksDropped, trials: stats.chunks, rate: 0.05, "dropped chunks")
        expectRate(stats.chunksDuplicated, trials: kept, rate: 0.03, "duplicated chunks")
        expectRate(stats.garbageBursts, trials: kept, rate: 0.04, "garbage bursts")
        let bytesOfKeptChunks = kept * 32
        expectRate(stats.bytesDropped, trials: bytesOfKeptChunks, rate: 0.002, "dropped bytes")
        expectRate(
            stats.bytesCorrupted, trials: bytesOfKeptChunks - stats.bytesDropped, rate: 0.00998, "corrupted bytes")
        #expect(stats.garbageBytes >= stats.garbageBursts * 2 && stats.garbageBytes <= stats.garbageBursts * 10)
    }

    @Test("corruption changes exactly the counted bytes and nothing else")
    func corruptionIsCountedExactly() async throws {
        await propertyCheck(count: 20, input: Gen<UInt64>.value()) { seed in
            let profile = FaultProfile(corruptByte: 0.05)
            let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: seed, clock: ManualClock())
            let sent = chunks(count: 50, size: 40, seed: seed)
            let received = try await transfer(sent, from: a, to: b)
            let original = sent.flatMap { $0 }
            #expect(received.count == original.count)
            let changed = zip(original, received).filter { $0 != $1 }.count
            #expect(changed == a.outboundStatistics.bytesCorrupted)
        }
    }

    @Test("the same seed gives the same bytes; another seed gives other bytes")
    func sameSeedSameOutput() async throws {
        let profile = FaultProfile(
            dropChunk: 0.05, dropByte: 0.01, corruptByte: 0.01,
            duplicateChunk: 0.05, garbageBurst: 0.05)
        func run(seed: UInt64) async throws -> [UInt8] {
            let (a, b) = try FaultInjectingTransport.pair(aToB: profile, bToA: .none, seed: seed, clock: ManualClock())
            return try await transfer(chunks(count: 500, size: 24, seed: 3), from: a, to: b)
        }
        let first = try await run(seed: 99)
        let again = try await run(seed: 99)
        let other = try await run(seed: 100)
        #expect(first == again)
        #expect(first != other)
    }

    @Test("each direction has its own profile")
    func directionsAreIndependent() async throws {
        let (a, b) = try FaultInjectingTransport.pair(
            aToB: FaultProfile(corruptByte: 1), bToA: .none, seed: 5, clock: ManualClock())
        let bytes = (0...255).map(UInt8.init)
        try await b.write(bytes)
        #expect(try await read(256, from: a) == bytes)
        try await a.write(bytes)
        let corrupted = try await read(256, from: b)
        #expect(zip(bytes, corrupted).allSatisfy { $0 != $1 })
        await a.close()
        await b.close()
    }

    @Test("inbound faults act on what is read")
    func inboundFaults() async throws {
        let (plain, other) = InMemoryTransport.makePair()
        let faulty = try FaultInjectingTransport(
            wrapping: plain, inbound: FaultProfile(dropChunk: 1), seed: 1, clock: ManualClock())
        try await faulty.write([1, 2, 3])  // outbound is clean
        #expect(try await read(3, from: other) == [1, 2, 3])
        try await other.write([9, 9])  // inbound drops every chunk
        await other.close()
        await #expect(throws: TransportError.self) { _ = try await faulty.read() }
        #expect(faulty.inboundStatistics.chunksDropped == 1)
        await faulty.close()
    }

    @Test("profiles with impossible values are refused with the field named")
    func invalidProfile() {
        #expect {
            _ = try FaultInjectingTransport(
                wrapping: InMemoryTransport.makePair().0,
                outbound: FaultProfile(dropChunk: 1.5), seed: 1, clock: ManualClock())
        } throws: { error in
            "\(error)".contains("dropChunk") && (error as? TransportError)?.reason == .unsupportedConfiguration
        }
    }
}
