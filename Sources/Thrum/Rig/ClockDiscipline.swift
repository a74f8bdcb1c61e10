/// Keeps one board's patterns on the host's time over a long run (SEMANTICS.md §1.6).
///
/// A board renders at its own crystal's rate: 100 ppm fast is 60 ms ahead after ten minutes of a
/// looping pattern. Clock synchronisation maps the board's clock to the host's at any instant, but
/// a playing pattern advances by the board's ticks, so the rig trims the board's pattern rate
/// (CLOCK_TRIM). It does not trust one drift figure: it adds up how far the board's patterns have
/// advanced under the trims it sent against how far the host's time went, and chooses the next
/// trim to pay back that difference over `horizon` as well as to cancel the drift. Its error is
/// then the clock estimate's error at one instant, which does not grow with the run.
struct ClockDiscipline: Sendable {
    /// How long an accumulated difference takes to be paid back (µs of host time).
    var horizon = 5_000_000.0
    /// A change smaller than this is not sent (parts per billion).
    var threshold: Int32 = 10
    /// The largest trim a board takes (ppb; PROTOCOL.md §7.4): 4 %, for a board up to 3 % off.
    static let maximumTrim = 40_000_000.0

    static func clamped(_ ppb: Double) -> Double { min(max(ppb, -maximumTrim), maximumTrim) }

    /// Beyond this a board's clock is no crystal (±100 ppm, ceramic resonators a few hundred).
    static let crystalDrift = 0.001

    /// The trim the board has now.
    private(set) var trim: Int32 = 0
    /// Pattern µs the board has played minus host µs, since `start`.
    private(set) var difference = 0.0
    private var last: (host: Double, board: Double)?

    /// Whether the count runs from a start the rig commanded (``anchor(board:host:)``).
    private(set) var isAnchored = false

    /// The board started a new session: its trim is 0 again and the past no longer counts.
    mutating func reset() {
        trim = 0
        difference = 0
        last = nil
        isAnchored = false
    }

    /// Counts from now on from the first start the rig gives the board: the board time it was
    /// sent (µs) and the host instant meant (µs). That pair was made with the clock estimate of
    /// the moment; measured from it, what later, better estimates say the board ran ahead or
    /// behind includes that start's own error, and the trims pay it back too, so a pattern that
    /// started a little off (a young estimate) comes into step instead of staying off.
    mutating func anchor(board: Double, host: Double) {
        difference = 0
        last = (host, board)
        isAnchored = true
    }

    /// At the anchor, a board off by more than a crystal can be (an RC oscillator) that has no trim
    /// yet gets the one that cancels its drift at once (returned; nil for any other board). Until the
    /// next reading it would otherwise play at its own rate: a board 3 % off ran 30 ms a second away,
    /// which the discipline paid back over `horizon`, its loops still 0.7 ms out of step 20 s later. A
    /// crystal's drift, still tens of ppm uncertain at its first start, waits for that reading.
    mutating func trimAtAnchor(drift: Double) -> Int32? {
        guard trim == 0, abs(drift) > Self.crystalDrift else { return nil }
        let wanted = Self.cancelling(drift: drift)
        guard abs(Int64(wanted)) >= Int64(threshold) else { return nil }
        trim = wanted
        return wanted
    }

    /// The trim (ppb, within the limits) that makes a board whose clock runs `drift` fast play at the
    /// host's rate.
    static func cancelling(drift: Double) -> Int32 { Int32(clamped((1 / (1 + drift) - 1) * 1e9).rounded()) }

    /// A board that rejoined: its crystal has not changed, so the trim that cancels its known
    /// drift goes to it at once instead of after the next readings. Returns that trim.
    mutating func seed(drift: Double) -> Int32? {
        reset()
        let wanted = Self.cancelling(drift: drift)
        guard wanted != 0 else { return nil }
        trim = wanted
        return wanted
    }

    /// A reading of the board's clock (µs) at a host instant (µs), with the drift the clock estimate
    /// has (board µs per host µs, minus 1); returns the trim to send, or nil to keep the one sent.
    mutating func update(host: Double, board: Double, drift: Double) -> Int32? {
        defer { last = (host, board) }
        guard let last else { return nil }
        difference += (board - last.board) * (1 + Double(trim) * 1e-9) - (host - last.host)
        // Over the next stretch the board's clock runs (1 + drift) per host µs; played at
        // (1 + rate) that must come to the host's time less the difference spread over `horizon`.
        let rate = (1 - difference / horizon) / (1 + drift) - 1
        let wanted = Int32(Self.clamped((rate * 1e9).rounded()))
        guard abs(Int64(wanted) - Int64(trim)) >= Int64(threshold) else { return nil }
        trim = wanted
        return wanted
    }
}
