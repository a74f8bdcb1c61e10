import Testing
import ThrumTesting

@testable import ThrumTransport

/// Every transport passes the same conformance checks.
@Suite(.timeLimit(.minutes(5))) struct ConformanceTests {
    @Test("in-memory pair", arguments: TransportConformance.checks)
    func inMemory(_ check: TransportConformance.Check) async throws {
        try await check.run { InMemoryTransport.makePair(capacity: 4096) }
    }

    @Test("termios on a pseudo-terminal", arguments: TransportConformance.checks)
    func termiosPseudoTerminal(_ check: TransportConformance.Check) async throws {
        try await check.run { try makePseudoTerminalPair() }
    }
}

/// The checks themselves must be able to fail: run them on transports broken on purpose.
@Suite(.timeLimit(.minutes(5))) struct ConformanceChecksCatchBrokenTransports {
    @Test("a transport that changes bytes fails the byte check")
    func corruptingTransportFails() async throws {
        let check = try #require(TransportConformance.checks.first { $0.name.contains("byte values") })
        await #expect(throws: TransportConformance.Failure.self) {
            try await check.run {
                try FaultInjectingTransport.pair(
                    aToB: FaultProfile(corruptByte: 0.5), bToA: .none, seed: 3, clock: ManualClock())
            }
        }
    }

    @Test("a transport that duplicates writes fails the ordering check")
    func duplicatingTransportFails() async throws {
        let check = try #require(TransportConformance.checks.first { $0.name.contains("in order") })
        await #expect(throws: TransportConformance.Failure.self) {
            try await check.run {
                try FaultInjectingTransport.pair(
                    aToB: FaultProfile(duplicateChunk: 0.5), bToA: .none, seed: 3, clock: ManualClock())
            }
        }
    }

    @Test("a transport whose reads never end times out instead of hanging")
    func hangingTransportTimesOut() async throws {
        let check = try #require(TransportConformance.checks.first { $0.name.contains("peer closes") })
        await #expect(throws: TransportConformance.Failure.self) {
            try await check.run(timeout: .milliseconds(300)) { (NeverEnding(), NeverEnding()) }
        }
    }
}

/// Delivers nothing and never reports the end: the shape of a transport that hangs.
private struct NeverEnding: ByteTransport {
    var name: String { "never-ending" }
    func read() async throws -> [UInt8] {
        try await Task.sleep(for: .seconds(3600))  // cancelled by the check's timeout
        return []
    }
    func write(_ bytes: [UInt8]) async throws {}
    func close() async {}
}
