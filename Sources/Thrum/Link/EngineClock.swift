import ThrumTransport
import ThrumWire

/// The clock an engine's link runs on. Real engines use the monotonic system clock; tests pass a
/// ``ManualClock`` (the same one the in-process simulator then runs on), so nothing waits on
/// wall-clock time.
public protocol EngineClock: Sendable {
    /// Now, on the host's monotonic time line (the link's time base).
    var now: MonotonicInstant { get }
    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: MonotonicInstant) async throws
}

/// The system's monotonic clock, counted from when this value was made.
public struct SystemEngineClock: EngineClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, origin.duration(to: .now).nanosecondsClamped)))
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await ContinuousClock().sleep(until: origin.advanced(by: .nanoseconds(Int64(clamping: deadline.nanoseconds))))
    }
}

/// A ``ManualClock`` seen as an engine clock: time moves only when the test advances it.
public struct ManualEngineClock: EngineClock {
    public let clock: ManualClock

    public init(_ clock: ManualClock) { self.clock = clock }

    public var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, clock.now.offset.nanosecondsClamped)))
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await clock.sleep(until: ManualClock.Instant(offset: .nanoseconds(Int64(clamping: deadline.nanoseconds))), tolerance: nil)
    }
}
