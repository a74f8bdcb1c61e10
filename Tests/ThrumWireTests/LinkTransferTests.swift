import Foundation
import PropertyBased
import Testing
import ThrumTesting

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
                tag: UInt16(truncatingIfNeeded: index), handle: 0, offset: UInt32(offset),
                data: Array(data[offset..<min(data.count, offset + room)]))
        }
    }

    static func reassemble(_ received: [(message: WireMessage, channel: Channel)]) -> [UInt8] {
        received.flatMap { $0.message.chunkData ?? [] }
    }

    /// `hostSelective`, `boardSelective`: false for an end of message set 1.0 (no SACK, nothing held).
    static func simulation(
        seed: UInt64, faults: VirtualLine.Faults, baud: Double = 1_000_000, hostSelective: Bool = true,
        boardSelective: Bool = true
    ) -> LinkSimulation {
        var host = LinkConfiguration(role: .host)
        host.nonceSeed = seed
        host.selectiveAcknowledgement = hostSelective
        var board = LinkSimulation.boardConfiguration(bootEpoch: UInt16(truncatingIfNeeded: seed))
        if !boardSelective, case .board(let epoch, var info) = board.role {
            info.minor = 0
            board.role = .board(bootEpoch: epoch, info: info)
            board.selectiveAcknowledgement = false
        }
        let latency: ClosedRange<Duration> = .microseconds(100) ... .milliseconds(1)
        return LinkSimulation(
            host: host, board: board,
            toBoard: VirtualLine(baud: baud, latency: latency, faults: faults, seed: seed &* 2 &+ 1),
            toHost: VirtualLine(baud: baud, latency: latency, faults: faults, seed: seed &* 2 &+ 2),
            boardClock: SimulatedBoardClock(offset: 1e9, driftPPM: 30))
    }

    /// Connects, sends `data` as chunks, runs until all arrived or `limit` passes; returns what arrived.
    static func transfer(
        _ data: [UInt8], in simulation: inout LinkSimulation, limit: Duration = .seconds(60), chunkPayload: Int? = nil
    ) throws -> [UInt8] {
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
            let (arrived, dropped) = try await onOwnThread {
                var simulation = Self.simulation(seed: UInt64(seed), faults: .issue3)
                return (try Self.transfer(data, in: &simulation), simulation.toBoard.statistics.dropped)
            }
            #expect(arrived.count == data.count, "seed \(seed)")
            #expect(arrived == data, "seed \(seed)")
            #expect(dropped > 0)
        }
    }

    /// The frame faults, with 1 % of all bytes corrupted independently instead of 1 % of frames.
    static var byteCorruption: VirtualLine.Faults {
        var faults = VirtualLine.Faults.issue3
        faults.corruptRate = 0
        faults.byteCorruptionRate = 0.01
        return faults
    }

    /// 64 KB in 64-byte chunks through the frame faults plus 1 % independent byte corruption.
    static func underByteCorruption(
        seed: UInt64, limit: Duration
    ) throws -> (data: [UInt8], arrived: [UInt8], simulation: LinkSimulation) {
        let data = payload(size: 65536, seed: seed)
        var simulation = simulation(seed: seed, faults: byteCorruption)
        let arrived = try transfer(data, in: &simulation, limit: limit, chunkPayload: 64)
        return (data, arrived, simulation)
    }

    @Test(
        "64 KB arrives bit-exact under 1 % independent byte corruption as well (small chunks), besides the frame faults"
    )
    func perByteCorruption() async {
        await propertyCheck(count: 3, input: Gen.int(in: 0...1_000_000)) { seed in
            let (data, arrived, corrupted, failed) = try await onOwnThread {
                let (data, arrived, simulation) = try Self.underByteCorruption(
                    seed: UInt64(seed), limit: .seconds(1800))
                let failed = simulation.hostEvents.contains { if case .failed = $0 { true } else { false } }
                return (data, arrived, simulation.toBoard.statistics.corruptedBytes, failed)
            }
            #expect(arrived == data, "seed \(seed): \(arrived.count) of \(data.count) bytes")
            #expect(corrupted > 1000)
            #expect(!failed)
        }
    }

    /// Two seeds the property above found crawling under 1 % byte corruption with 64-byte chunks.
    /// 95314: the first round-trip sample was an ambiguous one (taken when no clean sample existed yet) of
    /// 376 ms against a true round trip of a few ms, and Karn's rule allowed no clean sample to correct it
    /// (after 190 s, 87 of 1,150 messages); a PONG's round trip now replaces such an estimate.
    /// 1552124: the timeout swung between 0.17 and 2.7 s while PONGs showed a round trip of a few ms (after
    /// 58 s, 85 of 1,150 messages). The first progress after each timeout came a few ms after the resend and
    /// was taken for an answer to the original (sooner than srtt/2, an srtt inflated by acknowledgements a
    /// PONG had carried): the timeout was doubled as spurious and the frames the receiver had dropped were
    /// not resent, so each waited out a whole, doubled timeout. PROTOCOL.md §6.1–6.2 say what replaced that.
    @Test(
        "seeds that crawled under 1 % byte corruption complete within 120 s", arguments: [95314, 1552124] as [UInt64])
    func formerCrawls(seed: UInt64) async throws {
        let (data, arrived) = try await onOwnThread {
            let (data, arrived, _) = try Self.underByteCorruption(seed: seed, limit: .seconds(120))
            return (data, arrived)
        }
        #expect(arrived == data, "\(arrived.count) of \(data.count) bytes within 120 s")
    }

    /// 64 KB over this suite's line, cut and queued as `thrum-bench link` does it (`SimulatedUpload`).
    static func upload(
        seed: UInt64, faults: VirtualLine.Faults, baud: Double = 1_000_000, chunkPayload: Int? = nil,
        queueAhead: Int = 8,
        limit: Duration = .seconds(120)
    ) throws -> SimulatedUpload.Outcome {
        var simulation = simulation(seed: seed, faults: faults, baud: baud)
        let upload = SimulatedUpload(
            data: payload(size: 65536, seed: seed), queueAhead: queueAhead, limit: limit, chunkPayload: chunkPayload)
        return try #require(try upload.run(over: &simulation), "no handshake, seed \(seed)")
    }

    /// The line of issue 3 (5 % of frames lost, 1 % corrupted, 1 % duplicated, 1 % after a garbage burst) over
    /// many seeds (issue 15). The board holds the frames that arrive after a gap and names them in SACK, so
    /// the host resends only the missing ones (PROTOCOL.md §6.3): a loss costs about one frame, not the
    /// board's 4-frame window as under go-back-N, where a seed that lost more frames than most fell to 0.50
    /// of the clean throughput (the median 0.79). The timer fires only when a resend dies too.
    /// `thrum-bench link` sweeps 1,000 seeds at each rate.
    @Test(
        "frame faults: every seed bit-exact, at 0.7 or more of the clean throughput, no more than twice the median time",
        arguments: [115_200.0, 1_000_000.0])
    func throughputUnderFrameFaults(baud: Double) async throws {
        let sweep = try await onOwnThread {
            try UploadSweep(
                seeds: 1...12, upload: { try Self.upload(seed: $0, faults: $1, baud: baud) }, faults: .issue3)
        }
        #expect(sweep.allIntact)
        for run in sweep.runs {
            #expect(run.outcome.completed && run.outcome.intact, "seed \(run.seed)")
            #expect(sweep.throughputRatio(seconds: run.outcome.seconds) >= 0.7, "seed \(run.seed)")
            #expect(run.outcome.seconds <= 2 * sweep.medianSeconds, "seed \(run.seed)")
        }
    }

    /// Compatibility (PROTOCOL.md §9): a 1.1 end facing a 1.0 end sends no SACK and falls back to go-back-N
    /// (a 1.0 host would answer the unknown SACK with ERROR); two 1.1 ends use SACK and resend selectively.
    @Test(
        "message set 1.0 on either end: no SACK, go-back-N, bit-exact under frame faults; 1.1 on both: selective",
        arguments: [(true, false), (false, true), (true, true)])
    func mixedVersions(hostSelective: Bool, boardSelective: Bool) throws {
        for seed: UInt64 in [3, 4] {
            var simulation = Self.simulation(
                seed: seed, faults: .issue3, hostSelective: hostSelective, boardSelective: boardSelective)
            let data = Self.payload(size: 65536, seed: seed)
            let upload = SimulatedUpload(data: data, queueAhead: 8)
            let outcome = try #require(try upload.run(over: &simulation))
            #expect(outcome.completed && outcome.intact, "seed \(seed)")
            let host = simulation.host.statistics
            let board = simulation.board.statistics
            if hostSelective && boardSelective {
                #expect(board.sacksSent > 0 && board.framesHeld > 0, "seed \(seed)")
                #expect(host.selectiveResends > 0 && host.nakResends == 0, "seed \(seed)")
            } else {
                #expect(board.sacksSent == 0 && host.sacksSent == 0, "seed \(seed)")
                #expect(host.selectiveResends == 0 && host.nakResends > 0, "seed \(seed)")
                #expect(host.undecodable == 0 && board.undecodable == 0, "seed \(seed)")
            }
        }
    }

    /// The crawls above over more seeds: with 64-byte chunks, all queued at once, no seed takes twice the
    /// median time (the median is about 23 s, the worst of 50 seeds 28 s; before the timer's fix, 5 of 50
    /// seeds took 167 to over 600 s, seed 21 among them with 480 s). Few seeds, as each is a heavy run:
    /// `thrum-bench link` sweeps 200.
    @Test("1 % byte corruption: every seed completes bit-exact in under twice the median time")
    func noCrawlUnderByteCorruption() async throws {
        let sweep = try await onOwnThread {
            try UploadSweep(
                seeds: 21...24,
                upload: {
                    try Self.upload(seed: $0, faults: $1, chunkPayload: 64, queueAhead: .max, limit: .seconds(600))
                },
                faults: Self.byteCorruption)
        }
        #expect(sweep.allIntact)
        for run in sweep.runs {
            #expect(run.outcome.seconds <= 2 * sweep.medianSeconds, "seed \(run.seed): \(run.outcome.seconds) s")
        }
    }
}
