import Foundation
import Testing
import Thrum
import ThrumTesting
import ThrumTransport

/// `HapticEngine.probe`, which `thrum ports` uses to mark the ports where a Thrum board answers.
@Suite("Probing a port for a board")
struct ProbeTests {
    /// The probe returns as soon as the board answers; the long timeout only leaves room for a child
    /// process on a busy machine (with the default 1.5 s the full suite's load sometimes ran it out).
    @Test("a board behind a pty answers the handshake with its capabilities")
    func boardAnswers() async throws {
        let simulator = try SimulatorProcess.launch()
        defer { simulator.terminate() }
        let capabilities = try await HapticEngine.probe(DeviceAddress(parsing: simulator.devicePath), timeout: 15)
        #expect(capabilities?.boardName == "thrum simulator")
    }

    @Test("a port where nothing answers gives nil")
    func silenceIsNoBoard() async throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        let capabilities = try await HapticEngine.probe(DeviceAddress(parsing: terminal.devicePath), timeout: 0.3)
        #expect(capabilities == nil)
        _ = terminal
    }

    /// What lets a probe return at its own timeout: a start that is cancelled stops waiting for
    /// the handshake at once. On a manual clock that never moves, so the handshake's own 10 s
    /// limit cannot be what ends it. (It used to wait that out.)
    @Test(
        "a start cancelled while the board is silent ends without waiting for the handshake's limit",
        .timeLimit(.minutes(5)))
    func cancelledStartEnds() async throws {
        let clock = ManualClock()
        let (host, _) = InMemoryTransport.makePair(names: ("host", "nobody"))
        let engine = HapticEngine(manualClock: clock) { (host, nil) }
        let start = Task { try await engine.start() }
        try await Task.sleep(for: .milliseconds(50))
        start.cancel()
        await #expect(throws: CancellationError.self) { try await start.value }
        #expect(clock.now.offset == .zero)
        await engine.stop()
    }

    @Test("a device that cannot be opened is an error, not 'no board'")
    func missingDeviceThrows() async throws {
        await #expect(throws: HapticEngineError.self) {
            _ = try await HapticEngine.probe(DeviceAddress(parsing: "/dev/ttyTHRUM-does-not-exist"))
        }
    }
}
