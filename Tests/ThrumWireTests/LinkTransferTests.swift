import Foundation
import PropertyBased
import Testing
@testable import ThrumWire

/// Reliable transfers over the virtual line (issue 3 §5).
@Suite("Reliable transfer")
struct LinkTransferTests {
    static func payload(size: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Splits `data` into UPLOAD_CHUNK messages that fit `maxPayload`.
    static func chunks(of data: [UInt8], maxPayload: Int) -> [WireMessage] {
        let room = maxPayload - 7  // tag, handle, offset
        return stride(from: 0, to: data.count, by: room).enumerated().map { index, offset in
            .uploadChunk(
                tag: UInt16(truncatingIfNeeded: index), handle: 0, offset: UInt32(offset), data: Array(data[offset..<min(data.count, offset + room)]))
        }
    }

    static func reassemble(_ received: [(message: WireMessage, channel: Channel)]) -> [UInt8] {
        received.flatMap { $0.message.chunkData ?? [] }
    }

    static func simulation(seed: UInt64, faults: VirtualLine.Faults, baud: Double = 1_000_000) -> LinkSimulation {
        var host = LinkConfiguration(role: .host)
        host.nonceSeed = seed
        let latency: ClosedRange<Duration> = .microseconds(100) ... .milliseconds(1)
        return LinkSimulation(
            host: host, board: LinkSimulation.boardConfiguration(bootEpoch: UInt16(truncatingIfNeeded: seed)),
            toBoard: VirtualLine(baud: baud, latency: latency, faults: faults, seed: seed &* 2 &+ 1),
            toHost: VirtualLine(baud: baud, latency: latency, faults: faults, seed: seed &* 2 &+ 2),
            boardClock: SimulatedBoardClock(offset: 1e9, driftPPM: 30))
    }

    /// Connects, sends `data` as chunks, runs until all arrived or `limit` passes; returns what arrived.
    static func transfer(_ data: [UInt8], in simulation: inout LinkSimulation, limit: Duration = .seconds(60), chunkPayload: Int? = nil) throws -> [UInt8] {
        simulation.connect()
        simulation.run(until: simulation.now + .seconds(5)) { $0.host.isEstablished }
        #expect(simulation.host.isEstablished)
        let messages = chunks(of: data, maxPayload: chunkPayload ?? simulation.host.peerMaxPayload)
        for message in messages { try simulation.hostSend(message) }
        var arrived: [(message: WireMessage, channel: Channel)] = []
        simulation.run(until: simulation.now + limit) { sim in
            arrived.append(contentsOf: sim.takeBoardReceived())
            return arrived.count >= messages.count
        }
        return reassemble(arrived)
    }

    @Test("64 KB arrives bit-exact on a clean line")
    func clean() throws {
        let data = Self.payload(size: 65536, seed: 1)
        var simulation = Self.simulation(seed: 1, faults: .none)
        #expect(try Self.transfer(data, in: &simulation) == data)
        #expect(simulation.host.statistics.retransmissions == 0)
    }

    @Test("64 KB arrives bit-exact and in order with loss, corruption, duplicates and garbage both ways")
    func faulty() async {
        await propertyCheck(count: 12, input: Gen.int(in: 0...1_000_000)) { seed in
            let data = Self.payload(size: 65536, seed: UInt64(seed))
            var simulation = Self.simulation(seed: UInt64(seed), faults: .issue3)
            let arrived = try Self.transfer(data, in: &simulation)
            #expect(arrived.count == data.count, "seed \(seed)")
            #expect(arrived == data, "seed \(seed)")
            #expect(simulation.toBoard.statistics.dropped > 0)
        }
    }

    /// 64 KB in 64-byte chunks through the frame faults plus 1 % independent byte corruption.
    static func underByteCorruption(seed: UInt64, limit: Duration) throws -> (data: [UInt8], arrived: [UInt8], simulation: LinkSimulation) {
        var faults = VirtualLine.Faults.issue3
        faults.corruptRate = 0
        faults.byteCorruptionRate = 0.01
        let data = payload(size: 65536, seed: seed)
        var simulation = simulation(seed: seed, faults: faults)
        let arrived = try transfer(data, in: &simulation, limit: limit, chunkPayload: 64)
        return (data, arrived, simulation)
    }

    @Test("64 KB arrives bit-exact under 1 % independent byte corruption as well (small chunks), besides the frame faults")
    func perByteCorruption() async {
        await propertyCheck(count: 3, input: Gen.int(in: 0...1_000_000)) { seed in
            let (data, arrived, simulation) = try Self.underByteCorruption(seed: UInt64(seed), limit: .seconds(1800))
            #expect(arrived == data, "seed \(seed): \(arrived.count) of \(data.count) bytes")
            #expect(simulation.toBoard.statistics.corruptedBytes > 1000)
            #expect(!simulation.hostEvents.contains { if case .failed = $0 { true } else { false } })
        }
    }

    /// Found by the property above (seed 95314, about one seed in a hundred): under 1 % byte
    /// corruption with 64-byte chunks the transfer crawled (after 190 s, 87 of 1,150 messages;
    /// 1,126 bytes still missing at 1,800 s). The first round-trip sample was an ambiguous one
    /// (taken when no clean sample existed yet) of 376 ms against a true round trip of a few ms;
    /// after that every acknowledged frame had been sent more than once, so Karn's rule allowed no
    /// clean sample to correct it. A PONG's round trip now replaces an estimate that rests on an
    /// ambiguous sample only (PROTOCOL.md §6.2).
    @Test("seed 95314 under 1 % byte corruption no longer crawls")
    func ambiguousFirstSampleIsCorrected() throws {
        let (data, arrived, _) = try Self.underByteCorruption(seed: 95314, limit: .seconds(120))
        #expect(arrived == data, "\(arrived.count) of \(data.count) bytes within 120 s")
    }

    /// Rarer still (1 of 200 seeds scanned after the fix above): seed 1552124 crawls from a
    /// different start. Its estimate rests on clean samples, yet the timeout swings between 0.17
    /// and 2.7 s, halved when acknowledgements flow and doubled again by the spurious-timeout
    /// check, while PONGs show a round trip of a few ms; after 58 s, 85 of 1,150 messages. Not
    /// fixed: bounding the backed-off timeout by the PONG round trip is the next thing to try.
    @Test("known stall: seed 1552124 under 1 % byte corruption")
    func knownStall() throws {
        let (data, arrived, _) = try Self.underByteCorruption(seed: 1552124, limit: .seconds(120))
        #expect(data.starts(with: arrived), "what arrives is never wrong, only incomplete")
        withKnownIssue("the retransmission timeout swings high on this seed and the transfer crawls") {
            #expect(arrived.count == data.count)
        }
    }
}
