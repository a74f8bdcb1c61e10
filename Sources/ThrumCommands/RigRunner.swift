import ArgumentParser
import Foundation
import Thrum

/// The rig a command names: a rig file (`--rig rig.json`), else several `--device` options (boards
/// `a`, `b`, …); nil when neither asks for more than one board.
func rigConfiguration(file: String?, devices: [String]) throws -> RigConfiguration? {
    do {
        if let file { return try RigConfiguration(contentsOf: URL(fileURLWithPath: file)) }
        guard devices.count > 1 else { return nil }
        return try RigConfiguration(devices: devices.map { try DeviceAddress(parsing: $0) })
    } catch {
        throw failure("\(error)")
    }
}

/// Runs async rig work from a command, as ``withEngine(device:lineRate:_:)`` does for one board:
/// starts every board, prints boards leaving and rejoining as they happen, runs `body`, stops the
/// rig. Ctrl-C (SIGINT) or SIGTERM cancels `body` and still stops the rig.
func withRig<T: Sendable>(
    _ configuration: RigConfiguration, _ body: @escaping @Sendable (HapticRig) async throws -> T
) async throws -> T {
    let rig = HapticRig(configuration)
    let console = Console.current
    let events = rig.events
    let reporter = Task {
        for await event in events {
            switch event {
            case .boardLeft(let board, let cause): console.line("board \(board) left the rig: \(cause)")
            case .boardRejoined(let board, let left, let answered, let inStep):
                console.line(
                    String(
                        format: "board %@ is back after %.2f s, in step %.0f ms later", board, answered - left,
                        (inStep - answered) * 1000))
            default: continue
            }
        }
    }
    defer { reporter.cancel() }
    return try await interruptible(naming: "rig") {
        try await rig.start()
        return try await body(rig)
    } finally: {
        await rig.stop()
    }
}
