import ThrumWire

/// What a rig (``HapticRig``) asks of each of its boards' engines: the board's clock at a host
/// instant, a clock trim, and starts at a board instant from a position.
extension HapticEngine {
    /// The board's clock (µs, 64-bit) at a host instant; nil before clock synchronisation.
    package func boardMicroseconds(atHost instant: MonotonicInstant) async -> Double? {
        await session.link?.boardMicroseconds(at: instant)
    }

    /// The clock estimate against the host's clock; nil before clock synchronisation.
    package var clockEstimate: ClockSyncEstimator.Estimate? {
        get async { await session.link?.clockEstimate }
    }

    /// The clock estimator and the pings of the link the next start opens.
    package func setClockSynchronisation(_ estimator: ClockSyncEstimator.Configuration, pings: ClockSyncPolicy) {
        session.estimator = estimator
        session.clockSync = pings
    }

    /// Whether the board takes CLOCK_TRIM and channel sets (message set 1.2).
    package var speaksChannels: Bool { session.channels?.canTarget ?? false }

    /// Players advance at (1 + ppb/10⁹) pattern µs per board µs (CLOCK_TRIM, SEMANTICS.md §1.6).
    package func setClockTrim(partsPerBillion ppb: Int32) async throws {
        try await session.runningLink().command { .clockTrim(tag: $0, ratePpb: ppb) }
    }

    /// Starts `player` at board time `at` (µs, low 32 bits; 0 = now) from `position` µs into its
    /// pattern: a rig starting a board that rejoined where the others are.
    package func start(_ player: HapticPatternPlayer, atBoardTime at: UInt32, position: UInt32) async throws {
        try await startPlayer(player.id, timeline: player.timeline, at: Double(at) / 1e6, position: position)
    }

}
