import ThrumSimulator
import ThrumWire

/// The clock an engine's link and its embedded simulator run on. Real engines use the monotonic
/// system clock; tests use ThrumTesting's manual clock, so nothing waits on wall-clock time.
public protocol EngineClock: Sendable {
    /// Now, on the host's monotonic time line (the link's time base).
    var now: MonotonicInstant { get }
    /// Suspends until `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: MonotonicInstant) async throws
    /// Runs the embedded simulator on this clock until it ends.
    func serve(_ simulator: SimulatorServer) async throws
    /// A clock that moves only when a test moves it: the engine then keeps the link's fixed nonce
    /// seed, so that a run repeats exactly.
    var isManual: Bool { get }
}

/// The system's monotonic clock, counted from when this value was made.
public struct SystemEngineClock: EngineClock {
    private let origin = ContinuousClock.now

    public init() {}

    public var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, origin.duration(to: .now).nanosecondsClamped)))
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await ContinuousClock().sleep(
            until: origin.advanced(by: .nanoseconds(Int64(clamping: deadline.nanoseconds))))
    }

    public func serve(_ simulator: SimulatorServer) async throws { try await simulator.run() }

    public var isManual: Bool { false }
}
