import Foundation
import ThrumTransport
import ThrumWire

extension HapticEngine {
    /// Whether a Thrum board answers the handshake at `address` within `timeout` seconds: its
    /// capabilities if so, nil if the device opened but nothing answered. Throws when the device
    /// cannot be opened (busy, permission denied). With `manualClock` (tests), the link and the
    /// timeout run on that clock instead of the system's.
    public static func probe(_ address: DeviceAddress, timeout: Double = 1.5, manualClock: ManualClock? = nil) async throws -> BoardCapabilities? {
        let engine = try manualClock.map { HapticEngine(device: address, manualClock: $0) } ?? HapticEngine(device: address, simulatorFlashFile: nil)
        let clock: any EngineClock = manualClock.map { ManualEngineClock($0) } ?? SystemEngineClock()
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
