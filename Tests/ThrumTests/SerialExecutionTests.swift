import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// `SerialExecution` takes over every job of the process while it runs, so each test here runs
/// in a child process of its own (an exit test), where no other test's tasks share its thread.
@Suite("Virtual time that moves only when every task is suspended")
struct SerialExecutionTests {
    @Test("the clock waits for a chain of work longer than any fixed number of yields")
    func settleWaitsForQuiescence() async {
        await #expect(processExitsWith: .success) {
            let finished = try await SerialExecution.run { await SerialExecutionTests.chainAfterWaking() }
            // With a fixed number of yields between steps (no `SerialExecution`), the clock runs
            // past 5 ms before the chain ends.
            precondition(finished == .milliseconds(1), "the chain finished at t+\(finished), not at t+1 ms")
        }
    }

    /// A task wakes at 1 ms and then works through 2,000 hops before it notes the time, while
    /// the clock moves in 1 ms steps with 5 yields between them.
    static func chainAfterWaking() async -> Duration {
        let clock = ManualClock()
        let finished = Locked<Duration?>(nil)
        let worker = Task {
            try await clock.sleep(until: .init(offset: .milliseconds(1)))
            for _ in 0..<2000 { await Task.yield() }
            finished.set(clock.now.offset)
        }
        await clock.pass(.milliseconds(5), step: .milliseconds(1), yields: 5)
        worker.cancel()
        return finished.value ?? .seconds(-1)
    }

    @Test(
        "1,000 updates a second on a 115,200-baud line: every rendered update within the line's time and a tick, the same every run"
    )
    func pacedUpdatesAreDeterministic() async {
        await #expect(processExitsWith: .success) {
            let first = try await SerialExecution.run { try await SerialExecutionTests.parameterLatencies() }
            let second = try await SerialExecution.run { try await SerialExecutionTests.parameterLatencies() }
            precondition(first.count > 100, "only \(first.count) updates rendered")
            precondition(first == second, "two runs differ")
            // One RT_PARAM frame is 19 bytes: 1.649 ms at 115,200 baud. An update waits for the
            // line at most until the next update replaces it (1 ms), then the wire, then the
            // next tick (1 ms); the last update, never replaced, may wait a frame more.
            let sorted = first.sorted()
            let p99 = sorted[sorted.count * 99 / 100]
            precondition(p99 <= 0.003149, "p99 \(p99 * 1000) ms")
            precondition(sorted.last! <= 0.0045, "max \(sorted.last! * 1000) ms")
        }
    }

    /// 300 real-time intensity updates at 1 kHz; each rendered update's latency (seconds), from
    /// the call to the first tick showing its value.
    static func parameterLatencies() async throws -> [Double] {
        var board = BoardConfiguration()
        board.line = LineModel(baudRate: 115_200)
        let clock = ManualClock()
        let tap = TraceTap()
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: board, transport: end, tap: tap)
        // Board time 0 is the clock's reading when the server began.
        let origin = Locked(0.0)
        let engine = HapticEngine(manualClock: clock, lineRate: 115_200) {
            (
                host,
                Task {
                    origin.set(clock.now.offset.secondsDouble)
                    try? await server.run(on: clock)
                }
            )
        }
        let step = Duration.microseconds(100)
        try await clock.drive(step: step) { try await engine.start() }
        let player = try await engine.makeAdvancedPlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 5, intensity: 1)]))
        try await clock.drive(step: step) { try await player.start(atTime: 0) }
        await clock.pass(.milliseconds(20), step: step)
        var sent: [(time: Double, value: Double)] = []
        for index in 0..<300 {
            let value = Float(0.2 + 0.6 * Double((index * 37) % 101) / 100)
            let time = clock.now.offset.secondsDouble
            try await clock.drive(step: step) {
                try await player.sendRealtimeParameters([
                    DynamicParameter(.hapticIntensityControl, value: value, time: 0)
                ])
            }
            sent.append((time, Double(value)))
            await clock.pass(.milliseconds(1), step: step)
        }
        await clock.pass(.milliseconds(20), step: step)
        try await clock.drive(step: step) { await engine.stop() }
        precondition(clock.unsettledSteps == 0, "the clock moved \(clock.unsettledSteps) times without quiescence")
        let originSeconds = origin.value
        let ticks = tap.ticks.map { (seconds: $0.seconds + originSeconds, intensity: $0.intensity) }
        // Newest wins: a value replaced before it went out never shows (not counted).
        return sent.compactMap { update in
            ticks.first { tick in
                tick.seconds >= update.time - 1e-9 && tick.seconds <= update.time + 0.05
                    && abs(tick.intensity - update.value) < 0.0005
            }.map { $0.seconds - update.time }
        }
    }
}
