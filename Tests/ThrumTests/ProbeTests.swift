import Foundation
import Testing
import Thrum
import ThrumTransport

/// `HapticEngine.probe`, which `thrum ports` uses to mark the ports where a Thrum board answers.
@Suite("Probing a port for a board")
struct ProbeTests {
    @Test("a board behind a pty answers the handshake with its capabilities")
    func boardAnswers() async throws {
        let simulator = try SimulatorProcess.launch()
        defer { simulator.terminate() }
        let capabilities = try await HapticEngine.probe(DeviceAddress(parsing: simulator.devicePath))
        #expect(capabilities?.boardName == "thrum simulator")
    }

    @Test("a port where nothing answers gives nil once the timeout passes")
    func silenceIsNoBoard() async throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        let started = ContinuousClock.now
        let capabilities = try await HapticEngine.probe(DeviceAddress(parsing: terminal.devicePath), timeout: 0.3)
        #expect(capabilities == nil)
        // Well before the handshake's own 10 s limit, which it used to wait out. (0.3 s alone; the
        // parallel suite's tests that wait on child processes can hold the thread pool a while.)
        #expect(ContinuousClock.now - started < .seconds(8))
        _ = terminal
    }

    @Test("a device that cannot be opened is an error, not 'no board'")
    func missingDeviceThrows() async throws {
        await #expect(throws: HapticEngineError.self) {
            _ = try await HapticEngine.probe(DeviceAddress(parsing: "/dev/ttyTHRUM-does-not-exist"))
        }
    }
}
