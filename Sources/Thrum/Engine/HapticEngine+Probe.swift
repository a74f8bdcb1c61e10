import Foundation
import ThrumSimulator
import ThrumTransport
import ThrumWire

extension HapticEngine {
    /// Whether a Thrum board answers the handshake at `address` within `timeout` seconds: its
    /// capabilities if so, nil if the device opened but nothing answered. Throws when the device
    /// cannot be opened (busy, permission denied).
    public static func probe(_ address: DeviceAddress, timeout: Double = 1.5) async throws -> BoardCapabilities? {
        try await probe(address, timeout: timeout, clock: SystemEngineClock())
    }

    /// The same on `clock` (tests: a manual clock, so the timeout is not wall-clock time).
    package static func probe(
        _ address: DeviceAddress, timeout: Double, clock: any EngineClock
    ) async throws -> BoardCapabilities? {
        let engine = HapticEngine(device: address, clock: clock, simulator: BoardConfiguration())
        defer { Task { await engine.stop() } }
        return try await withThrowingTaskGroup(of: BoardCapabilities?.self) { group in
            group.addTask {
                try await engine.start()
                return await engine.capabilities
            }
            group.addTask {
                try await clock.sleep(until: clock.now + .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            defer { group.cancelAll() }
            do {
                return try await group.next() ?? nil
            } catch let error as HapticEngineError {
                if case .openFailed = error { throw error }
                return nil  // opened, but what answered was not a Thrum board
            }
        }
    }
}
