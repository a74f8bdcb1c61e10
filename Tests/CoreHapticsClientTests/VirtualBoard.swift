// Test harness, not client code: an engine on a simulated board whose clock the test moves,
// so app-style code that blocks (as Core Haptics' calls do) runs without wall-clock waits.
import Foundation
import Thrum
import ThrumCoreHaptics
import ThrumSimulator
import ThrumTesting
import ThrumTransport

struct VirtualBoard: Sendable {
    let clock: ManualClock
    let engine: CHHapticEngine
    let socket: BoardSocket

    init() {
        let clock = ManualClock()
        let socket = BoardSocket(clock: clock)
        self.clock = clock
        self.socket = socket
        engine = CHHapticEngine(engine: HapticEngine(manualClock: clock, open: socket.plugIn))
    }

    /// Runs app code on the main actor (where apps make Core Haptics calls) while virtual time moves.
    func onMain<T: Sendable>(_ body: @escaping @MainActor @Sendable () throws -> T) async throws -> T {
        try await clock.drive { try await MainActor.run(body: body) }
    }

    /// Moves virtual time until `condition`, read on the main actor, holds.
    func wait(
        limit: Duration = .seconds(20), step: Duration = .milliseconds(1),
        until condition: @escaping @MainActor @Sendable () -> Bool
    ) async throws {
        try await clock.drive(step: step, limit: limit) {
            while await !MainActor.run(body: condition) { await Task.yield() }
        }
    }

    /// Whether the board's engine runs, as Thrum sees it.
    var isRunning: Bool {
        get async { await engine.engine.isRunning }
    }

    /// Ticks the board has rendered with its actuator driven: what the app's patterns played.
    var playedTicks: Int { socket.tap.ticks.filter { $0.intensityQ15 > 0 }.count }
}

/// Where the engine plugs its board in: a simulator behind an in-memory line, made anew at every
/// start, so that a test can pull the cable or press the reset button of the board now in use.
final class BoardSocket: @unchecked Sendable {
    let tap = TraceTap()
    private let clock: ManualClock
    private let lock = NSLock()
    private var current: (line: InMemoryTransport, server: SimulatorServer)?

    init(clock: ManualClock) { self.clock = clock }

    /// The engine's `open`: the host's end of a new line, and the task serving the board.
    var plugIn: @Sendable () throws -> (any ByteTransport, Task<Void, Never>?) {
        { [self] in
            let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
            let server = try SimulatorServer(configuration: BoardConfiguration(), transport: end, tap: tap)
            lock.withLock { current = (end, server) }
            let clock = clock
            return (host, Task { try? await server.run(on: clock) })
        }
    }

    /// The cable is pulled: the board's end of the line closes.
    func unplug() async {
        let line = lock.withLock { current?.line }
        await line?.close()
    }

    /// The board reboots (its timelines and players are gone).
    func pressReset() {
        lock.withLock { current?.server }?.resetButton.press()
    }
}
