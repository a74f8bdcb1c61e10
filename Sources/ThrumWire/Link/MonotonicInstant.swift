/// A point on the host's monotonic clock, in nanoseconds. The link never reads a clock itself: every
/// input carries the time it happened, so tests and simulations drive it with virtual time.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func + (lhs: Self, rhs: Duration) -> Self {
        let delta = rhs.nanosecondsClamped
        return MonotonicInstant(
            nanoseconds: delta >= 0 ? lhs.nanoseconds &+ UInt64(delta) : lhs.nanoseconds &- UInt64(-delta))
    }

    /// Signed distance `self - other`.
    public func duration(since other: Self) -> Duration {
        .nanoseconds(Int64(bitPattern: nanoseconds &- other.nanoseconds))
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }
    public var microseconds: Double { Double(nanoseconds) / 1e3 }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// Whole nanoseconds, saturating at the limits of Int64.
    public var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    public var secondsDouble: Double { Double(nanosecondsClamped) / 1e9 }
}
