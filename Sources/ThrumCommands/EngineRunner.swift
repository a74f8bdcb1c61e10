import ArgumentParser
import Foundation
import Thrum

/// Runs async engine work from a synchronous command: starts an engine for `--device` (default
/// `THRUM_DEVICE`, else the embedded simulator), runs `body`, stops the engine, and turns engine
/// errors into `thrum: …` lines. Ctrl-C (SIGINT) or SIGTERM cancels `body` and still stops the engine.
func withEngine<T: Sendable>(
    device: String?, lineRate: Int? = nil, _ body: @escaping @Sendable (HapticEngine) async throws -> T
) async throws -> T {
    let address: DeviceAddress
    do {
        address = try device.map { try DeviceAddress(parsing: $0) } ?? DeviceAddress.default
    } catch {
        throw failure("\(error)")
    }
    let engine: HapticEngine
    do { engine = try HapticEngine(device: address, lineRate: lineRate) } catch { throw failure("\(error)") }
    return try await interruptible(naming: "\(address)") {
        try await engine.start()
        return try await body(engine)
    } finally: {
        await engine.stop()
    }
}

/// Runs `work` with the command's console, until it ends or Ctrl-C (SIGINT) or SIGTERM cancels it;
/// then `finally` (which stops what `work` started), and turns errors into `thrum: …` lines, those
/// of the device or rig prefixed with `naming`.
func interruptible<T: Sendable>(
    naming: String, _ work: @escaping @Sendable () async throws -> T,
    finally: () async -> Void
) async throws -> T {
    let console = Console.current
    let task = Task { try await Console.$current.withValue(console) { try await work() } }
    let signals = TerminationSignals { task.cancel() }
    defer { signals.release() }
    let outcome = await task.result
    await finally()
    switch outcome {
    case .success(let value):
        return value
    case .failure(let error as ExitCode):
        throw error
    case .failure(is CancellationError):
        throw failure("interrupted")
    case .failure(let error):
        throw failure("\(naming): \(error)")
    }
}
