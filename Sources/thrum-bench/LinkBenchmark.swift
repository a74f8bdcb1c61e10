import ThrumTesting
import ThrumWire

/// Issue 3 §5: the link over a virtual serial line in virtual time (deterministic, seeded).
extension Suite {
    static var link: Suite {
        Suite(name: "link", summary: "wire efficiency, throughput, faults, clock-sync accuracy over a virtual line") {
            try LinkBenchmark.run()
        }
    }
}

enum LinkBenchmark {
    /// What the benchmark board states in INFO: 1 KB frames, a window of 4.
    static let boardMaxPayload = 1024
    static let boardWindow = 4
    static let usbJitter: ClosedRange<Duration> = .microseconds(100) ... .milliseconds(1)
    /// Seeds swept on the faulty line at each rate, and under 1 % byte corruption with 64-byte chunks.
    static let faultSeedCount: UInt64 = 1000
    static let byteSeedCount: UInt64 = 200

    typealias TransferResult = SimulatedUpload.Outcome

    static func run() throws -> [Metric] {
        var metrics: [Metric] = []
        let clean = try transfer(baud: 1_000_000, faults: .none, seed: 1)
        metrics.append(
            Metric(
                name: "link.wire_efficiency_64k", value: Double(clean.dataBytes) / Double(clean.forwardLineBytes),
                unit: "ratio", goal: .atLeast(0.95)))
        metrics.append(
            Metric(
                name: "link.reverse_bytes_per_data_byte",
                value: Double(clean.reverseLineBytes) / Double(clean.dataBytes), unit: "ratio", goal: .none))

        for baud in [115_200.0, 1_000_000.0] {
            let sweep = try UploadSweep(
                seeds: 1...faultSeedCount, cleanSeed: baud == 1_000_000 ? 1 : 2,
                upload: { try transfer(baud: baud, faults: $1, seed: $0) }, faults: .issue3)
            let lineRate = baud / 10
            metrics.append(
                Metric(
                    name: "link.throughput_share_\(Int(baud))", value: sweep.clean.throughput / lineRate, unit: "ratio",
                    goal: .atLeast(0.90)))
            metrics.append(
                Metric(name: "link.clean_completion_\(Int(baud))", value: sweep.clean.seconds, unit: "s", goal: .none))
            metrics += faultSweepMetrics(
                sweep, name: "link.faulty", suffix: "_\(Int(baud))", throughputGoal: .atLeast(0.7))
        }

        // The other reading of "1 % byte corruption": every byte independently, on top of the frame faults.
        // Only small frames get through; the host's sender finds the size itself (PROTOCOL.md §6.5).
        var perByte = VirtualLine.Faults.issue3
        perByte.corruptRate = 0
        perByte.byteCorruptionRate = 0.01
        var harshCompleted = true
        var harshWorst = Double.infinity
        var harshChunk = 0.0
        for seed in [7, 8, 9] as [UInt64] {
            let harsh = try transfer(baud: 1_000_000, faults: perByte, seed: seed, limit: .seconds(3600))
            harshCompleted = harshCompleted && harsh.completed && harsh.intact
            harshWorst = min(harshWorst, harsh.completed ? harsh.throughput / 100_000 : 0)
            harshChunk = max(harshChunk, harsh.meanChunk)
        }
        metrics.append(
            Metric(
                name: "link.byte_corruption_1pct_completes", value: harshCompleted ? 1 : 0, unit: "bool",
                goal: .atLeast(1)))
        // Reported, not targeted: the issue's throughput target reads "1% byte corruption" as 1% of
        // frames (the fault runs above). Per byte, no framed protocol with 14 bytes of overhead per
        // frame reaches half its clean rate (PROTOCOL.md §13); this figure tracks how close we get.
        metrics.append(
            Metric(name: "link.byte_corruption_1pct_throughput_share", value: harshWorst, unit: "ratio", goal: .none))
        metrics.append(
            Metric(name: "link.byte_corruption_1pct_mean_chunk", value: harshChunk, unit: "bytes", goal: .none))
        // Fixed 64-byte chunks, all queued at once: the transfer that crawled on one seed in a hundred while
        // the retransmission timeout swung (LinkTransferTests). Its throughput is reported, not targeted.
        let crawl = try UploadSweep(
            seeds: 1...byteSeedCount,
            upload: {
                try transfer(
                    baud: 1_000_000, faults: $1, seed: $0, limit: .seconds(3600), chunkPayload: 64, queueAhead: .max)
            },
            faults: perByte)
        metrics += faultSweepMetrics(crawl, name: "link.byte_corruption_1pct_64b", suffix: "", throughputGoal: .none)
        metrics.append(Metric(name: "link.clean_mean_chunk", value: clean.meanChunk, unit: "bytes", goal: .none))

        var worstP99 = 0.0
        var worstMax = 0.0
        for seed in [101, 202, 303, 404, 505] as [UInt64] {
            let errors = clockSyncErrors(seed: seed)
            worstP99 = max(worstP99, percentile(errors, 0.99))
            worstMax = max(worstMax, errors.max() ?? 0)
        }
        metrics.append(
            Metric(name: "link.clock_sync_error_p99_after_2s", value: worstP99 / 1000, unit: "ms", goal: .atMost(0.5)))
        metrics.append(
            Metric(name: "link.clock_sync_error_max_after_2s", value: worstMax / 1000, unit: "ms", goal: .none))
        return metrics
    }

    static func makeSimulation(
        baud: Double, faults: VirtualLine.Faults, seed: UInt64, clock: SimulatedBoardClock
    ) -> LinkSimulation {
        var host = LinkConfiguration(role: .host)
        host.nonceSeed = seed
        return LinkSimulation(
            host: host,
            board: LinkSimulation.boardConfiguration(
                maxPayload: boardMaxPayload, window: boardWindow, bootEpoch: UInt16(truncatingIfNeeded: seed)),
            toBoard: VirtualLine(baud: baud, latency: usbJitter, faults: faults, seed: seed &* 7 &+ 1),
            toHost: VirtualLine(baud: baud, latency: usbJitter, faults: faults, seed: seed &* 7 &+ 2),
            boardClock: clock)
    }

    /// 64 KB of timeline bytes as UPLOAD_CHUNK messages (see `SimulatedUpload`); time from the first chunk to
    /// the last delivery.
    static func transfer(
        baud: Double, faults: VirtualLine.Faults, seed: UInt64, limit: Duration = .seconds(120),
        chunkPayload: Int? = nil,
        queueAhead: Int = LinkBenchmark.queueAhead
    ) throws -> TransferResult {
        var simulation = makeSimulation(
            baud: baud, faults: faults, seed: seed, clock: SimulatedBoardClock(offset: 5e8, driftPPM: 40))
        let upload = SimulatedUpload(
            data: SimulatedUpload.randomData(size: 65536, seed: seed), queueAhead: queueAhead, limit: limit,
            chunkPayload: chunkPayload)
        guard let outcome = try upload.run(over: &simulation) else {
            throw BenchmarkError(what: "no handshake at \(baud) baud, seed \(seed)")
        }
        return outcome
    }

    /// Reliable messages kept queued ahead of the board's window (twice the window: the line never idles).
    static let queueAhead = 2 * boardWindow

    /// The figures of a many-seed sweep: the share of seeds that meet `throughputGoal`, whether every transfer
    /// arrived bit-exact, the slowest seed's throughput against the clean line's (`throughputGoal`), the
    /// median's, the slowest time against the median's (at most twice), which seed was slowest, and the most
    /// timeouts and retransmissions of a run.
    static func faultSweepMetrics(
        _ sweep: UploadSweep, name: String, suffix: String, throughputGoal: Metric.Goal
    ) -> [Metric] {
        guard let slowest = sweep.slowest else { return [] }
        let median = sweep.medianSeconds
        var shareAtGoal: [Metric] = []
        if case .atLeast(let target) = throughputGoal {
            let atGoal = sweep.runs.filter { sweep.throughputRatio(seconds: $0.outcome.seconds) >= target }.count
            shareAtGoal = [
                Metric(
                    name: "\(name)_share_of_seeds_at_target\(suffix)", value: Double(atGoal) / Double(sweep.runs.count),
                    unit: "ratio", goal: .none)
            ]
        }
        return shareAtGoal + [
            Metric(name: "\(name)_completes\(suffix)", value: sweep.allIntact ? 1 : 0, unit: "bool", goal: .atLeast(1)),
            Metric(
                name: "\(name)_throughput_vs_clean\(suffix)",
                value: sweep.throughputRatio(seconds: slowest.outcome.seconds), unit: "ratio", goal: throughputGoal),
            Metric(
                name: "\(name)_median_throughput_vs_clean\(suffix)", value: sweep.throughputRatio(seconds: median),
                unit: "ratio", goal: throughputGoal),
            Metric(
                name: "\(name)_worst_vs_median_time\(suffix)", value: slowest.outcome.seconds / median, unit: "ratio",
                goal: .atMost(2)),
            Metric(name: "\(name)_worst_seed\(suffix)", value: Double(slowest.seed), unit: "seed", goal: .none),
            Metric(name: "\(name)_worst_seconds\(suffix)", value: slowest.outcome.seconds, unit: "s", goal: .none),
            Metric(name: "\(name)_median_seconds\(suffix)", value: median, unit: "s", goal: .none),
            Metric(name: "\(name)_seeds\(suffix)", value: Double(sweep.runs.count), unit: "count", goal: .none),
            Metric(
                name: "\(name)_max_timeouts\(suffix)", value: Double(sweep.runs.map(\.outcome.timeouts).max() ?? 0),
                unit: "count", goal: .none),
            Metric(
                name: "\(name)_retransmissions\(suffix)",
                value: Double(sweep.runs.map(\.outcome.retransmissions).max() ?? 0), unit: "frames", goal: .none),
        ]
    }

    /// |estimated − true| board time (µs), sampled every millisecond from 2 s to 10 s after connecting,
    /// over a 1 Mbaud line with USB-like jitter of 0.1–1 ms each way, the board drifting 50 ppm.
    static func clockSyncErrors(seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        let clock = SimulatedBoardClock(offset: Double(rng.next() % 4_000_000_000), driftPPM: 50)
        var simulation = makeSimulation(baud: 1_000_000, faults: .none, seed: seed, clock: clock)
        simulation.connect()
        let start = simulation.now
        var errors: [Double] = []
        var probe = start + .seconds(2)
        while probe <= start + .seconds(10) {
            simulation.run(until: probe)
            if let estimate = simulation.host.clock.boardMicroseconds(at: probe) {
                errors.append(abs(estimate - clock.microseconds(at: probe)))
            } else {
                errors.append(.infinity)
            }
            probe = probe + .milliseconds(1)
        }
        return errors
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded(.up)))]
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var what: String
    var description: String { what }
}
