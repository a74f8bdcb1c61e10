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
            case .boardRejoined(let board, let down, let resync):
                console.line(
                    String(
                        format: "board %@ is back after %.2f s, in step %.0f ms later", board, down.secondsDouble,
                        resync.secondsDouble * 1000))
            default: continue
            }
        }
    }
    defer { reporter.cancel() }
    let work = Task {
        try await Console.$current.withValue(console) {
            try await rig.start()
            return try await body(rig)
        }
    }
    let signals = TerminationSignals { work.cancel() }
    defer { signals.release() }
    let outcome = await work.result
    await rig.stop()
    switch outcome {
    case .success(let value):
        return value
    case .failure(let error as ExitCode):
        throw error
    case .failure(is CancellationError):
        throw failure("interrupted")
    case .failure(let error):
        throw failure("rig: \(error)")
    }
}
