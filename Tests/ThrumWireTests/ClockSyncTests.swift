import PropertyBased
import Testing
import ThrumTesting

@testable import ThrumWire

@Suite("Clock synchronisation")
struct ClockSyncTests {
    @Test("32-bit board readings extend to 64 bits across wraps, both directions")
    func extender() {
        var extender = BoardClockExtender()
        #expect(extender.extend(0xFFFF_FF00) == 0xFFFF_FF00)
        #expect(extender.extend(0x0000_0100) == 0x1_0000_0100)  // wrapped forward
        #expect(extender.extend(0xFFFF_FFF0) == 0xFFFF_FFF0)  // a slightly older reading stays before the wrap
        #expect(extender.extend(0x0000_0200) == 0x1_0000_0200)
        #expect(extender.extend(0x8000_0000) == 0x1_8000_0000)
        #expect(extender.extend(0xF000_0000) == 0x1_F000_0000)
        #expect(extender.extend(0x0000_0001) == 0x2_0000_0001)
    }

    @Test("sample arithmetic: symmetric delays give the exact offset; the board's processing time is removed")
    func sampleMaths() {
        let sample = ClockSample(
            hostSent: MonotonicInstant(nanoseconds: 1_000_000), hostReceived: MonotonicInstant(nanoseconds: 1_900_000),
            boardReceived: 5_000_300, boardSent: 5_000_600)  // 300 µs out, 300 µs processing, 300 µs back
        #expect(sample.roundTrip == 600)
        #expect(sample.offset == 5_000_300 - 1_300)
    }

    @Test("the estimator recovers offset and drift from noisy samples and ignores impossible ones")
    func estimator() async {
        await propertyCheck(count: 40, input: Gen.uint64(), Gen.int(in: -200...200)) { seed, ppm in
            var rng = SplitMix64(seed: seed)
            let clock = SimulatedBoardClock(offset: Double(rng.next() % 1_000_000_000_000), driftPPM: Double(ppm))
            var estimator = ClockSyncEstimator()
            estimator.add(
                ClockSample(
                    hostSent: MonotonicInstant(nanoseconds: 5_000_000),
                    hostReceived: MonotonicInstant(nanoseconds: 4_000_000), boardReceived: 0, boardSent: 0))
            #expect(estimator.estimate == nil, "negative round trip rejected")
            let samples = pings(clock, count: 60, rng: &rng)
            for sample in samples { estimator.add(sample) }
            let probe = samples.last!.hostSent + .milliseconds(150)
            let error = abs(estimator.boardMicroseconds(at: probe)! - clock.microseconds(at: probe))
            #expect(error < 300, "error \(error) µs at \(ppm) ppm")
            #expect(
                abs(estimator.estimate!.drift * 1e6 - Double(ppm)) < 60,
                "drift \(estimator.estimate!.drift * 1e6) ppm vs \(ppm)")
            let back = estimator.hostInstant(atBoardMicroseconds: estimator.boardMicroseconds(at: probe)!)!
            #expect(abs(Double(back.nanoseconds) - Double(probe.nanoseconds)) < 2_000)
        }
    }

    /// `count` pings 100 ms apart from `start` (host second 1), each way 100 µs to 1 ms.
    private func pings(
        _ clock: SimulatedBoardClock, count: Int, rng: inout SplitMix64,
        from start: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000)
    ) -> [ClockSample] {
        (0..<count).map { index in
            let host = start + .milliseconds(100 * index)
            let up = Duration.microseconds(Int64.random(in: 100...1000, using: &rng))
            let down = Duration.microseconds(Int64.random(in: 100...1000, using: &rng))
            let board = UInt64(clock.microseconds(at: host + up))
            return ClockSample(hostSent: host, hostReceived: host + up + down, boardReceived: board, boardSent: board)
        }
    }

    /// 1.5 s of pings, then the board-time error 5 s after them (µs), for an estimator without a
    /// prior, one with the drift known within a ppm, and one told the exact drift: the best any
    /// drift can do, the rest being the offset's own noise.
    private func youngErrors(seed: UInt64, ppm: Int) -> (none: Double, known: Double, exact: Double) {
        var rng = SplitMix64(seed: seed)
        let clock = SimulatedBoardClock(offset: Double(rng.next() % 1_000_000_000), driftPPM: Double(ppm))
        let known = Double(ppm) + Double(Int64(rng.next() % 2001) - 1000) / 1000
        let samples = pings(clock, count: 15, rng: &rng)
        let probe = samples.last!.hostSent + .seconds(5)
        func error(_ prior: ClockSyncEstimator.DriftPrior?) -> Double {
            var configuration = ClockSyncEstimator.Configuration()
            configuration.driftPrior = prior
            var estimator = ClockSyncEstimator(configuration: configuration)
            for sample in samples { estimator.add(sample) }
            return abs(estimator.boardMicroseconds(at: probe)! - clock.microseconds(at: probe))
        }
        return (
            error(nil), error(.init(drift: known * 1e-6, uncertainty: 1e-6)),
            error(.init(drift: Double(ppm) * 1e-6, uncertainty: 0))
        )
    }

    @Test("a drift known within a ppm makes a young estimate as good as the exact drift would, within 15 µs")
    func driftPrior() async {
        await propertyCheck(count: 30, input: Gen.uint64(), Gen.int(in: -100...100)) { seed, ppm in
            let errors = youngErrors(seed: seed, ppm: ppm)
            #expect(abs(errors.known - errors.exact) < 15, "\(errors) at \(ppm) ppm, seed \(seed)")
        }
    }

    @Test("without a known drift, the same young estimate is off by 100 µs more in most runs")
    func noDriftPrior() {
        let worse = (UInt64(1)...20).filter { seed in
            let errors = youngErrors(seed: seed, ppm: 40)
            return errors.none >= errors.exact + 100
        }
        #expect(worse.count >= 10, "\(worse.count) of 20")
    }

    @Test("a wrong known drift gives way to two minutes of pings")
    func wrongDriftPrior() {
        var rng = SplitMix64(seed: 7)
        let clock = SimulatedBoardClock(offset: 123_456_789, driftPPM: -30)
        var configuration = ClockSyncEstimator.Configuration()
        configuration.history = 1200
        configuration.driftPrior = .init(drift: -10e-6, uncertainty: 1e-6)  // 20 ppm off, claiming 1
        var estimator = ClockSyncEstimator(configuration: configuration)
        for sample in pings(clock, count: 15, rng: &rng) { estimator.add(sample) }
        #expect(abs(estimator.estimate!.drift * 1e6 + 10) < 2, "the prior holds at first")
        let later = MonotonicInstant(nanoseconds: 2_500_000_000)
        for sample in pings(clock, count: 1200, rng: &rng, from: later) { estimator.add(sample) }
        // Two minutes of samples outweigh the prior: the fit has come more than two thirds of the way.
        #expect(abs(estimator.estimate!.drift * 1e6 + 30) < 20.0 / 3, "drift \(estimator.estimate!.drift * 1e6) ppm")
    }

    /// Boards on an RC oscillator (an RP2040, an ESP32, the Nucleo port's HSI fallback) are up to 3 %
    /// off; the estimator fits their drift instead of capping it (PROTOCOL.md §7.4).
    @Test(
        "a board 3 % fast or slow: its drift is fitted, and the board-time error stays under 0.5 ms after 2 s",
        arguments: [-30000.0, 30000.0])
    func rcOscillator(ppm: Double) {
        let clock = SimulatedBoardClock(offset: 12_345, driftPPM: ppm)
        var host = LinkConfiguration(role: .host)
        host.nonceSeed = 11
        let jitter: ClosedRange<Duration> = .microseconds(100) ... .milliseconds(1)
        var simulation = LinkSimulation(
            host: host, board: LinkSimulation.boardConfiguration(),
            toBoard: VirtualLine(baud: 1_000_000, latency: jitter, seed: 12),
            toHost: VirtualLine(baud: 1_000_000, latency: jitter, seed: 13), boardClock: clock)
        simulation.connect()
        var worst = 0.0
        var probe = MonotonicInstant.zero + .seconds(2)
        while probe <= .zero + .seconds(10) {
            simulation.run(until: probe)
            worst = max(worst, abs(simulation.host.clock.boardMicroseconds(at: probe)! - clock.microseconds(at: probe)))
            probe = probe + .milliseconds(7)
        }
        #expect(worst < 500, "worst error \(worst) µs at \(ppm) ppm")
        let drift = simulation.host.clock.estimate!.drift * 1e6
        #expect(abs(drift - ppm) < 5, "drift \(drift) ppm for \(ppm)")
    }

    @Test("over the virtual line with USB-like jitter, the host's board-time error stays under 0.5 ms after 2 s")
    func overTheLink() async {
        await propertyCheck(count: 6, input: Gen.uint64(in: 1...1_000_000), Gen.int(in: -100...100)) { seed, ppm in
            let clock = SimulatedBoardClock(offset: Double(seed) * 3_700, driftPPM: Double(ppm))
            var host = LinkConfiguration(role: .host)
            host.nonceSeed = seed
            let jitter: ClosedRange<Duration> = .microseconds(100) ... .milliseconds(1)
            var simulation = LinkSimulation(
                host: host, board: LinkSimulation.boardConfiguration(),
                toBoard: VirtualLine(baud: 1_000_000, latency: jitter, seed: seed &+ 1),
                toHost: VirtualLine(baud: 1_000_000, latency: jitter, seed: seed &+ 2), boardClock: clock)
            simulation.connect()
            var worst = 0.0
            var probe = MonotonicInstant.zero + .seconds(2)
            while probe <= .zero + .seconds(5) {
                simulation.run(until: probe)
                worst = max(
                    worst, abs(simulation.host.clock.boardMicroseconds(at: probe)! - clock.microseconds(at: probe)))
                probe = probe + .milliseconds(7)
            }
            #expect(worst < 500, "worst error \(worst) µs, seed \(seed), \(ppm) ppm")
            let pings = simulation.host.statistics.pingsSent
            #expect(pings >= 35 && pings <= 60, "8 fast pings then one per 100 ms: \(pings)")
        }
    }
}
