/// A client's share of requests (Protocol/SERVICE.md §8): `rate` a second on average, up to `burst`
/// at once. Pure: the caller says what time it is, so tests need no clock.
struct TokenBucket: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: Double?

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        self.tokens = burst
    }

    /// Takes one token at `now` (seconds); false when none is left.
    mutating func take(at now: Double) -> Bool {
        if let last, now > last { tokens = min(burst, tokens + (now - last) * rate) }
        last = max(last ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
