import ThrumModel
import ThrumWire

/// Plays one pattern on the engine's board (Core Haptics' `CHHapticPatternPlayer`). Cheap to make:
/// the compiled timeline goes to the board on the first start and stays there while memory allows,
/// so later starts send only a start command.
public class HapticPatternPlayer: @unchecked Sendable {
    // Only `let`s: safe to share between tasks; all mutable state is the engine's.
    public let engine: HapticEngine
    /// The engine's number for this player (events name players by it).
    public let id: Int
    let timeline: CompiledTimeline

    init(engine: HapticEngine, id: Int, timeline: CompiledTimeline) {
        self.engine = engine
        self.id = id
        self.timeline = timeline
    }

    /// The compiled timeline's size in bytes.
    public var timelineSize: Int { timeline.bytes.count }

    /// Starts playing at engine time `time` (``HapticEngine/timeImmediate`` for now). A start
    /// while playing restarts from the beginning.
    public func start(atTime time: Double) async throws {
        try await engine.startPlayer(id, timeline: timeline, at: time)
    }

    /// Stops at engine time `time`; the pattern's release tails are cut.
    public func stop(atTime time: Double) async throws {
        try await engine.stopPlayer(id, at: time)
    }

    /// Sets dynamic parameters (the run-time layer: intensity multiplies, sharpness adds).
    public func sendParameters(_ parameters: [DynamicParameter], atTime time: Double) async throws {
        try await engine.sendParameters(parameters, player: id, at: time)
    }

    /// Schedules a parameter curve; its control point times are relative to `time`.
    public func scheduleParameterCurve(_ curve: ParameterCurve, atTime time: Double) async throws {
        try await engine.scheduleCurve(curve, player: id, at: time)
    }

    /// Stops at once and forgets scheduled commands.
    public func cancel() async throws {
        try await engine.cancelPlayer(id)
    }

    /// Silences the player without stopping it (kept for later starts).
    public func setMuted(_ muted: Bool) async throws {
        try await engine.apply(.mute(muted), to: id)
    }
}

/// A player with transport controls (Core Haptics' `CHHapticAdvancedPatternPlayer`).
public final class HapticAdvancedPatternPlayer: HapticPatternPlayer, @unchecked Sendable {
    public func pause(atTime time: Double) async throws {
        try await engine.send(.pause(at: BoardSession.boardTime(time)), to: id)
    }

    public func resume(atTime time: Double) async throws {
        try await engine.send(.resume(at: BoardSession.boardTime(time)), to: id)
    }

    /// Moves the play position to `offset` seconds into the pattern.
    public func seek(toOffset offset: Double) async throws {
        try await engine.send(.seek(position: BoardSession.boardTime(offset)), to: id)
    }

    /// Loops the pattern, from its start to `loopEnd` seconds (0: the pattern's duration).
    /// Kept for later starts, like the rate.
    public func setLoop(enabled: Bool, loopEnd: Double = 0) async throws {
        try await engine.apply(.loop(enabled: enabled, end: BoardSession.boardTime(loopEnd)), to: id)
    }

    /// Playback rate, 1/256 … 16 (the board's limits); kept for later starts.
    public func setPlaybackRate(_ rate: Double) async throws {
        guard rate.isFinite, rate >= 1.0 / 256, rate <= 16 else {
            throw HapticEngineError.invalidPlayer("playback rate \(rate) is outside 1/256…16")
        }
        let q8 = UInt16((rate * 256).rounded())
        try await engine.apply(.rate(q8: q8), to: id)
    }

    /// Called once when the pattern finishes (not when it is stopped or cancelled).
    public func setCompletionHandler(_ handler: (@Sendable ((any Error)?) -> Void)?) async {
        await engine.setCompletion(handler, for: id)
    }
}

extension HapticPatternPlayer {
    /// Sets dynamic parameters at once over the real-time channel: no acknowledgement, no
    /// retransmission, the newest value wins on the board. The lowest-latency path, for values that
    /// follow a finger or a physics engine many times a second; a lost update is overtaken by the
    /// next. Use ``sendParameters(_:atTime:)`` for a value that must arrive.
    public func sendRealtimeParameters(_ parameters: [DynamicParameter]) async throws {
        try await engine.sendRealtime(parameters, player: id)
    }
}
