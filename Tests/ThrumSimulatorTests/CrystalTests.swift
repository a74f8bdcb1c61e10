import Testing
import ThrumTesting
import ThrumWire

@testable import ThrumSimulator

/// A board whose crystal is off (`BoardConfiguration.clockPPM`): its clock, as PONG reports it,
/// runs (1 + ppm·10⁻⁶) times the host's over a long span, and the server wakes on its ticks.
@Suite(.timeLimit(.minutes(5))) struct CrystalTests {
    /// The board's reading after `host` nanoseconds at `ppm` (whole ppm), in exact integers: the
    /// drift rounded to the nanosecond, then whole microseconds.
    static func expectedBoardMicroseconds(host: Int64, ppm: Int64) -> UInt32 {
        let drift = (host * ppm + (host * ppm >= 0 ? 500_000 : -500_000)) / 1_000_000
        return UInt32(truncatingIfNeeded: (host + drift) / 1000)
    }

    @Test(arguments: [100.0, -100.0])
    func pongTimesFollowTheCrystalOverAnHour(ppm: Double) async throws {
        var configuration = BoardConfiguration()
        configuration.clockPPM = ppm
        configuration.line = LineModel()
        // 100 ticks a second: an hour of them renders in a fraction of a second.
        configuration.tickRate = 100
        let clock = ManualClock()
        let (transport, server) = try SimulatorServer.inProcess(configuration: configuration)
        let serving = Task { try await server.run(on: clock) }
        var host = PingingHost(transport: transport, clock: clock)
        try await host.connect()

        // Whole seconds, a time between microsecond drifts, and an hour (the 32-bit clock wraps at 71 min).
        let instants: [Int64] = [1_000_000_000, 1_234_567_000, 60_000_000_000, 3_600_000_000_000]
        var boardTime: UInt32 = 0
        for instant in instants {
            clock.advance(to: ManualClock.Instant(offset: .nanoseconds(instant)))
            let pong = try await host.ping()
            let expected = Self.expectedBoardMicroseconds(host: instant, ppm: Int64(ppm))
            #expect(pong.rxTime == expected, "at \(instant) ns")
            #expect(pong.txTime == expected, "at \(instant) ns")
            #expect(pong.hostTime == UInt32(truncatingIfNeeded: instant / 1000))
            boardTime = pong.rxTime
        }
        // An hour at ±100 ppm: ±360 ms.
        #expect(Int64(boardTime) == 3_600_000_000 + 360_000 * Int64(ppm / 100))

        // Tick pacing: the server sleeps until the board's next tick (10 ms on), in host time.
        await clock.waitForSleepers(1)
        let deadline = try #require(clock.nextDeadline).offset.nanosecondsClamped
        let nextTick = Double(UInt64(boardTime) + 10_000) * 1000
        let expectedDeadline = (nextTick / (1 + ppm / 1_000_000)).rounded(.up)
        #expect(abs(Double(deadline) - expectedDeadline) <= 2, "woke at \(deadline) ns for board tick \(nextTick) ns")

        serving.cancel()
        try await serving.value
        await transport.close()
    }

    /// Host time from board time and back: the first host instant of a board microsecond maps to
    /// it, the nanosecond before it to the one before.
    @Test(arguments: [-30000.0, -1000.0, -100.0, -0.5, 0, 12.5, 100.0, 1000.0, 30000.0])
    func hostAndBoardTimeMapBothWays(ppm: Double) {
        let crystal = BoardCrystal(ppm: ppm)
        var random = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let board = random.next() % 5_000_000_000_000
            let host = crystal.hostNanoseconds(atBoardMicroseconds: board)
            #expect(crystal.boardMicroseconds(atHostNanoseconds: host) == board)
            if host > 0 { #expect(crystal.boardMicroseconds(atHostNanoseconds: host - 1) < board) }
            #expect(crystal.boardMicroseconds(reachingHostNanoseconds: host) == board)
            #expect(crystal.boardMicroseconds(reachingHostNanoseconds: host + 1) == board + 1)
        }
    }

    /// The in-process host sees the drift too: after ten seconds of board time, host time is
    /// ten seconds less the drift.
    @Test(arguments: [100.0, -100.0])
    func simulatedHostTimeFollowsTheCrystal(ppm: Double) throws {
        var configuration = BoardConfiguration()
        configuration.clockPPM = ppm
        var host = SimulatedHost(board: try SimulatedBoard(configuration))
        _ = try host.connect()
        host.run(until: { _ in false }, deadline: 10_000_000)
        let expected = 10_000_000_000 / (1 + ppm / 1_000_000)
        #expect(abs(Double(host.now.nanoseconds) - expected) < 1000)
    }

    @Test func crystalsFarOffAreRefused() {
        var configuration = BoardConfiguration()
        configuration.clockPPM = 40000.5
        #expect(configuration.problems().contains { $0.hasPrefix("clockPPM 40000.5") })
        configuration.clockPPM = .nan
        #expect(configuration.problems().contains { $0.hasPrefix("clockPPM nan") })
        configuration.clockPPM = -30000
        #expect(configuration.problems().isEmpty)
    }
}
