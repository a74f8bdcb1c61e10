import Logging
import Thrum
import ThrumSimulator
import ThrumTransport
import ThrumWire

/// A ``ManualClock`` seen as an engine clock: time moves only when the test advances it, for the
/// engine's link and its embedded simulator alike.
public struct ManualEngineClock: EngineClock {
    public let clock: ManualClock

    public init(_ clock: ManualClock) { self.clock = clock }

    public var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, clock.now.offset.nanosecondsClamped)))
    }

    public func sleep(until deadline: MonotonicInstant) async throws {
        try await clock.sleep(
            until: ManualClock.Instant(offset: .nanoseconds(Int64(clamping: deadline.nanoseconds))), tolerance: nil)
    }

    public func serve(_ simulator: SimulatorServer) async throws { try await simulator.run(on: clock) }

    public var isManual: Bool { true }
}

extension HapticEngine {
    /// An engine whose link (and embedded simulator) run on a manual clock: the test moves time.
    /// `logHandler` makes the handler of each of Thrum's loggers from its label (``LogRecorder``'s
    /// `handler(label:)`, say); by default they go through swift-log's bootstrap.
    public init(
        device: DeviceAddress = .simulator, manualClock: ManualClock,
        simulator: BoardConfiguration = BoardConfiguration(),
        logHandler: (@Sendable (String) -> any LogHandler)? = nil
    ) {
        self.init(
            device: device, clock: ManualEngineClock(manualClock), simulator: simulator,
            makeLogger: logHandler.map { handler in { Logger(label: $0, factory: handler) } })
    }

    /// An engine on a transport the test opens (a simulator behind a faulty or slow line), on a
    /// manual clock. `open` returns the host's end and the task serving the board, which the engine
    /// cancels when it stops. `lineRate` (bits per second, 10 a byte) paces real-time updates to a
    /// UART's rate. `logHandler` as for ``init(device:manualClock:simulator:logHandler:)``.
    public init(
        manualClock: ManualClock, lineRate: Int? = nil, logHandler: (@Sendable (String) -> any LogHandler)? = nil,
        open: @escaping @Sendable () throws -> (any ByteTransport, Task<Void, Never>?)
    ) {
        self.init(
            device: .simulator, clock: ManualEngineClock(manualClock), simulator: BoardConfiguration(),
            lineRate: lineRate, open: open,
            makeLogger: logHandler.map { handler in { Logger(label: $0, factory: handler) } })
    }
}
