// Test harness, not client code: an engine on the embedded simulator whose clock the test moves,
// so app-style code that blocks (as Core Haptics' calls do) runs without wall-clock waits.
import Foundation
import Thrum
import ThrumCoreHaptics
import ThrumTesting
import ThrumTransport

struct VirtualBoard: Sendable {
    let clock = ManualClock()
    let engine: CHHapticEngine

    init() {
        engine = CHHapticEngine(engine: HapticEngine(manualClock: clock))
    }

    /// Runs app code on the main actor (where apps make Core Haptics calls) while virtual time moves.
    func onMain<T: Sendable>(_ body: @escaping @MainActor @Sendable () throws -> T) async throws -> T {
        try await clock.drive { try await MainActor.run(body: body) }
    }

    /// Moves virtual time until `condition`, read on the main actor, holds.
    func wait(limit: Duration = .seconds(20), until condition: @escaping @MainActor @Sendable () -> Bool) async throws {
        try await clock.drive(limit: limit) {
            while await !MainActor.run(body: condition) { await Task.yield() }
        }
    }
}
