import Foundation
import Thrum
import ThrumModel
import ThrumTransport

/// Plays a pattern (Core Haptics' `CHHapticPatternPlayer`). Each call waits until the board has
/// the command. Like Apple's, it refines `NSObjectProtocol`: an app's own player (a test double)
/// is an `NSObject`. With auto shutdown, a request on a stopped engine starts it first
/// (<doc:EngineLifecycle>).
public protocol CHHapticPatternPlayer: NSObjectProtocol {
    func start(atTime time: TimeInterval) throws
    func stop(atTime time: TimeInterval) throws
    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws
    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws
    func cancel() throws
    var isMuted: Bool { get set }
}

/// A player with transport controls (Core Haptics' `CHHapticAdvancedPatternPlayer`).
public protocol CHHapticAdvancedPatternPlayer: CHHapticPatternPlayer {
    func pause(atTime time: TimeInterval) throws
    func resume(atTime time: TimeInterval) throws
    func seek(toOffset offsetTime: TimeInterval) throws
    var loopEnabled: Bool { get set }
    var loopEnd: TimeInterval { get set }
    var playbackRate: Float { get set }
    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler { get set }
}

/// Apple's type: not `@Sendable`; it runs on the engine's callback queue.
public typealias CHHapticAdvancedPatternPlayerCompletionHandler = ((any Error)?) -> Void

/// Both player kinds, over Thrum's advanced player. Property setters that Core Haptics makes
/// non-throwing report a failure to the engine's log instead of losing it silently.
///
/// The engine's `isMutedForHaptics`, `isMutedForAudio` and `playsHapticsOnly` decide which events
/// play: a start after one of them changed remakes the Thrum player for the events that now play,
/// carrying the player's settings over.
final class ThrumPatternPlayer: NSObject, CHHapticAdvancedPatternPlayer, @unchecked Sendable {
    private let pattern: HapticPattern
    private weak var owner: CHHapticEngine?
    private struct State {
        var current: HapticAdvancedPatternPlayer
        var filter: CHHapticEngine.PlaybackFilter
        var muted = false
        var looping = false
        var end: TimeInterval = 0
        var rate: Float = 1
        var completion: CHHapticAdvancedPatternPlayerCompletionHandler?
    }
    private let state: Locked<State>
    private let callbacks: CallbackQueue

    init(_ pattern: HapticPattern, on owner: CHHapticEngine) throws {
        self.pattern = pattern
        self.owner = owner
        self.callbacks = owner.callbacks
        let filter = owner.playbackFilter
        self.state = Locked(State(current: try owner.makeThrumPlayer(pattern, filter: filter), filter: filter))
        super.init()
    }

    var player: HapticAdvancedPatternPlayer { state.withLock { $0.current } }

    func start(atTime time: TimeInterval) throws {
        try remakeIfFilterChanged()
        try request { try await $0.start(atTime: time) }
    }

    /// Runs a request that needs the engine running. With auto shutdown a stopped engine starts
    /// first, whatever stopped it: Apple's engine "starts and stops automatically on request from
    /// one of its pattern players". Start and request go in one call, so that nothing the app
    /// does on another thread comes between them.
    private func request(_ work: @escaping @Sendable (HapticAdvancedPatternPlayer) async throws -> Void) throws {
        let wakes = owner?.isAutoShutdownEnabled == true
        let player = self.player
        try blocking {
            if wakes { try await player.engine.start() }
            try await work(player)
        }
    }

    /// A new Thrum player when the engine's filter changed since this one was made: the old one is
    /// cancelled, and mute, loop, rate and the completion handler carry over.
    private func remakeIfFilterChanged() throws {
        let madeFor = state.withLock { $0.filter }
        guard let owner, owner.playbackFilter != madeFor else { return }
        let wanted = owner.playbackFilter
        let replacement = try owner.makeThrumPlayer(pattern, filter: wanted)
        let (old, muted, looping, end, rate) = state.withLock { ($0.current, $0.muted, $0.looping, $0.end, $0.rate) }
        let completion = forwardedCompletion
        try blocking {
            try await old.cancel()
            if muted { try await replacement.setMuted(true) }
            if looping { try await replacement.setLoop(enabled: true, loopEnd: end) }
            if rate != 1 { try await replacement.setPlaybackRate(Double(rate)) }
            await replacement.setCompletionHandler(completion)
        }
        state.withLock { state in
            state.current = replacement
            state.filter = wanted
        }
    }

    /// On a stopped engine nothing plays, so there is nothing to stop: it is not started for it.
    func stop(atTime time: TimeInterval) throws {
        try blocking { try await self.player.stop(atTime: time) }
    }

    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws {
        let values = try parameters.map { try $0.model() }
        try request { try await $0.sendParameters(values, atTime: time) }
    }

    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws {
        let curve = try parameterCurve.model()
        try request { try await $0.scheduleParameterCurve(curve, atTime: time) }
    }

    /// Like `stop`, does not start a stopped engine.
    func cancel() throws {
        try blocking { try await self.player.cancel() }
    }

    func pause(atTime time: TimeInterval) throws {
        try request { try await $0.pause(atTime: time) }
    }

    func resume(atTime time: TimeInterval) throws {
        try request { try await $0.resume(atTime: time) }
    }

    func seek(toOffset offsetTime: TimeInterval) throws {
        try request { try await $0.seek(toOffset: offsetTime) }
    }

    var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set {
            state.withLock { $0.muted = newValue }
            apply { try await $0.setMuted(newValue) }
        }
    }

    var loopEnabled: Bool {
        get { state.withLock { $0.looping } }
        set {
            let end = state.withLock {
                $0.looping = newValue
                return $0.end
            }
            apply { try await $0.setLoop(enabled: newValue, loopEnd: end) }
        }
    }

    var loopEnd: TimeInterval {
        get { state.withLock { $0.end } }
        set {
            let looping = state.withLock {
                $0.end = newValue
                return $0.looping
            }
            apply { try await $0.setLoop(enabled: looping, loopEnd: newValue) }
        }
    }

    var playbackRate: Float {
        get { state.withLock { $0.rate } }
        set {
            state.withLock { $0.rate = newValue }
            apply { try await $0.setPlaybackRate(Double(newValue)) }
        }
    }

    /// Apple's type, not optional: a player never given one answers a handler that does nothing.
    var completionHandler: CHHapticAdvancedPatternPlayerCompletionHandler {
        get { state.withLock { $0.completion } ?? { _ in } }
        set {
            state.withLock { $0.completion = newValue }
            let forwarded = forwardedCompletion
            try? blocking { await self.player.setCompletionHandler(forwarded) }
        }
    }

    /// The completion handler as Thrum's player calls it: handed to the callback queue, so that it
    /// may restart this player without waiting on the engine that is finishing it.
    private var forwardedCompletion: (@Sendable ((any Error)?) -> Void)? {
        state.withLock { $0.completion }.map { handler in
            callbacks.forwarding { (error: (any Error)?) in handler(error.map { CHHapticError($0) }) }
        }
    }

    /// Applies a setting now; a failure goes to the engine's events as a log line.
    private func apply(_ change: @escaping @Sendable (HapticAdvancedPatternPlayer) async throws -> Void) {
        do { try blocking { try await change(self.player) } } catch {
            let engine = player.engine
            Task { await engine.log("a player setting failed: \(error)") }
        }
    }
}
