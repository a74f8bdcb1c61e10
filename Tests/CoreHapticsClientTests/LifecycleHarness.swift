// Test harness for the life cycle tests, not client code.
import Foundation
import Testing
import ThrumCoreHaptics

extension VirtualBoard {
    /// Sets auto shutdown as asked and a stopped handler that records what it hears, then starts
    /// the engine unless told not to; returns what the handler heard and will hear.
    func recordingStops(autoShutdown: Bool = false, starting: Bool = true) async throws -> Reasons {
        let reasons = Reasons()
        let engine = engine
        try await onMain {
            engine.isAutoShutdownEnabled = autoShutdown
            engine.stoppedHandler = { reasons.append($0) }
            if starting { try engine.start() }
        }
        return reasons
    }

    /// Registers a finished handler that answers `.stopEngine` only once the test opens the gate
    /// it returns; returns once the engine has called it.
    func heldStopEngineAnswer() async throws -> Gate {
        let (called, gate) = (Latch(), Gate())
        let engine = engine
        try await onMain {
            engine.notifyWhenPlayersFinished { _ in
                called.open()
                gate.wait()
                return .stopEngine
            }
        }
        try await wait { called.isOpen }
        return gate
    }

    /// Waits until every callback queued so far has run: a finished handler registered now is
    /// called at once (nothing plays) or when the players finish, after those before it.
    func drain() async throws {
        let drained = Latch()
        let engine = engine
        try await onMain {
            engine.notifyWhenPlayersFinished { _ in
                drained.open()
                return .leaveEngineRunning
            }
        }
        try await wait { drained.isOpen }
    }

    /// Unplugs the running board and expects the stopped handler to have heard that, and nothing
    /// before: the engine's events arrive in order, so an earlier stop would be heard first.
    func expectOnlyUnplugHeard(_ reasons: Reasons, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(await isRunning, sourceLocation: sourceLocation)
        await socket.unplug()
        try await wait { reasons.values.contains(.systemError) }
        #expect(reasons.values == [.systemError], sourceLocation: sourceLocation)
    }
}

/// What a stopped handler heard, readable from any thread.
final class Reasons: @unchecked Sendable {
    private let lock = NSLock()
    private var heard: [CHHapticEngine.StoppedReason] = []
    var values: [CHHapticEngine.StoppedReason] { lock.withLock { heard } }
    func append(_ reason: CHHapticEngine.StoppedReason) { lock.withLock { heard.append(reason) } }
}

/// Holds a handler on the engine's queue until the test opens it.
final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait() }
    func open() { semaphore.signal() }
}
