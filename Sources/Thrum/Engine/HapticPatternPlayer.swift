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
        try await engine.updateSettings(of: id, "mute", { $0.muted = muted }) { tag, player in .playerMute(tag: tag, player: player, muted: muted) }
    }
}

/// A player with transport controls (Core Haptics' `CHHapticAdvancedPatternPlayer`).
public final class HapticAdvancedPatternPlayer: HapticPatternPlayer, @unchecked Sendable {
    public func pause(atTime time: Double) async throws {
        let at = try HapticEngine.boardTime(time)
        try await engine.playerCommand(id, "pause") { tag, player in .playerPause(tag: tag, player: player, atTime: at) }
    }

    public func resume(atTime time: Double) async throws {
        let at = try HapticEngine.boardTime(time)
        try await engine.playerCommand(id, "resume") { tag, player in .playerResume(tag: tag, player: player, atTime: at) }
    }

    /// Moves the play position to `offset` seconds into the pattern.
    public func seek(toOffset offset: Double) async throws {
        let position = try HapticEngine.boardTime(offset)
        try await engine.playerCommand(id, "seek") { tag, player in .playerSeek(tag: tag, player: player, position: position, atTime: 0) }
    }

    /// Loops the pattern, from its start to `loopEnd` seconds (0: the pattern's duration).
    /// Kept for later starts, like the rate.
    public func setLoop(enabled: Bool, loopEnd: Double = 0) async throws {
        let end = try HapticEngine.boardTime(loopEnd)
        try await engine.updateSettings(of: id, "loop", {
            $0.loopEnabled = enabled
            $0.loopEnd = end
        }) { tag, player in .playerLoop(tag: tag, player: player, enabled: enabled, loopEnd: end) }
    }

    /// Playback rate, 1/256 … 16 (the board's limits); kept for later starts.
    public func setPlaybackRate(_ rate: Double) async throws {
        guard rate.isFinite, rate >= 1.0 / 256, rate <= 16 else {
            throw HapticEngineError.invalidPlayer("playback rate \(rate) is outside 1/256…16")
        }
        let q8 = UInt16((rate * 256).rounded())
        try await engine.updateSettings(of: id, "change its playback rate", { $0.rateQ8 = q8 }) { tag, player in .playerRate(tag: tag, player: player, rateQ8: q8) }
    }

    /// Called once when the pattern finishes (not when it is stopped or cancelled).
    public func setCompletionHandler(_ handler: (@Sendable ((any Error)?) -> Void)?) async {
        await engine.setCompletion(handler, for: id)
    }
}

extension HapticEngine {
    func startPlayer(_ id: Int, timeline: CompiledTimeline, at time: Double) async throws {
        let at = try Self.boardTime(time)
        if timeline.audioEvents > 0, let capabilities, !capabilities.audio.isPresent {
            emit.yield(.log(level: .warning, text: "player \(id): \(timeline.audioEvents) audio event\(timeline.audioEvents == 1 ? "" : "s") skipped: \(capabilities.boardName) has no audio output"))
        }
        if mustStream(timeline) { return try await startStreamed(id, timeline: timeline, at: at) }
        let waveforms = try await loadWaveforms(of: timeline, player: id)
        let handle = try await load(timeline, keeping: waveforms)
        guard let assigned = players.assign(id, handle: handle) else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        await cutShort(assigned.displaced)
        // The start and the player's settings go together, so the first tick already has them.
        let player = UInt8(assigned.index)
        let messages: [MessageMaker] = [{ .playerStart(tag: $0, player: player, handle: handle, atTime: at, position: 0) }]
            + players.preparation(of: assigned.index, for: players[settingsOf: id])
        noteActivity()
        do {
            try await runningLink().commands(messages)
        } catch {
            players.release(id)
            throw error
        }
    }

    /// Stops every board player the player sounds on (two while a streamed pattern hands over).
    func stopPlayer(_ id: Int, at time: Double) async throws {
        let at = try Self.boardTime(time)
        if streams[id] != nil {
            streams[id]?.stopAt = at
            wake(id)
        }
        let boardPlayers = players.boardPlayers(of: id)
        guard !boardPlayers.isEmpty else { return }  // not playing: nothing to stop
        try await runningLink().commands(boardPlayers.map { boardPlayer in { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: at) } })
    }

    func cancelPlayer(_ id: Int) async throws {
        if streams[id] != nil { return await endStream(of: id, cancelling: true) }
        guard let boardPlayer = players.boardPlayer(of: id) else { return }
        try await runningLink().command { .playerCancel(tag: $0, player: UInt8(boardPlayer)) }
        players.release(id)
        noteActivity()
    }

    /// Sends a transport command (pause, resume, seek) for the board player `id` plays on; a
    /// player that is not playing ignores it; a streamed one refuses it.
    func playerCommand(_ id: Int, _ what: String, _ make: @escaping @Sendable (UInt16, UInt8) -> WireMessage) async throws {
        let link = try runningLink()
        try refuseIfStreamed(id, what)
        guard let boardPlayer = players.boardPlayer(of: id) else { return }
        try await link.command { make($0, UInt8(boardPlayer)) }
    }

    private func refuseIfStreamed(_ id: Int, _ what: String) throws {
        guard let stream = streams[id] else { return }
        let size = stream.pieces.count
        throw HapticEngineError.invalidPlayer(
            "player \(id) plays a pattern larger than the board's timeline memory, streamed in \(size) pieces, and cannot \(what)")
    }

    /// Records a setting and, if the player is playing, sends it now (to each board player).
    func updateSettings(
        of id: Int, _ what: String, _ change: (inout PlayerSettings) -> Void, _ make: @escaping @Sendable (UInt16, UInt8) -> WireMessage
    ) async throws {
        if what != "mute" { try refuseIfStreamed(id, what) }
        change(&players[settingsOf: id])
        let boardPlayers = players.boardPlayers(of: id)
        guard !boardPlayers.isEmpty else { return }
        for boardPlayer in boardPlayers { players.update(boardPlayer, change) }
        try await runningLink().commands(boardPlayers.map { boardPlayer in { make($0, UInt8(boardPlayer)) } })
    }

    /// All the parameters go out back to back, one round trip for the lot.
    func sendParameters(_ parameters: [DynamicParameter], player id: Int, at time: Double) async throws {
        let at = try Self.boardTime(time)
        let link = try runningLink()
        let values = wireValues(parameters)
        await recordRuntime(values, player: id, at: at)
        try await sendRuntime(values.map { .step(RuntimeLayer.Step(parameter: $0, value: $1, at: at)) }, player: id, on: link)
    }

    /// Sends run-time controls to every board player `id` plays on (two while a streamed pattern
    /// hands over), all in one round trip.
    private func sendRuntime(_ entries: [RuntimeLayer.Entry], player id: Int, on link: BoardLink) async throws {
        let boardPlayers = players.boardPlayers(of: id)
        for boardPlayer in boardPlayers { players.touched(entries.map(\.parameter), on: boardPlayer) }
        let makes = boardPlayers.flatMap { boardPlayer in entries.map { $0.message(to: UInt8(boardPlayer)) } }
        guard !makes.isEmpty else { return }
        try await link.commands(makes)
    }

    /// The parameters the wire can carry, as wire numbers and Q1.14 values; the others are
    /// reported as skipped.
    func wireValues(_ parameters: [DynamicParameter]) -> [(WireParameter, Int16)] {
        parameters.compactMap { parameter in
            guard let wire = WireParameter(parameter.id) else {
                emit.yield(.log(level: .warning, text: "\(parameter.id.rawValue) has no effect on this board; skipped"))
                return nil
            }
            return (wire, WireParameter.q14(parameter.value, for: parameter.id))
        }
    }

    func scheduleCurve(_ curve: ParameterCurve, player id: Int, at time: Double) async throws {
        guard let wire = WireParameter(curve.id) else {
            emit.yield(.log(level: .warning, text: "\(curve.id.rawValue) has no effect on this board; skipped"))
            return
        }
        let limit = capabilities?.maxCurvePoints ?? 16
        guard curve.controlPoints.count <= limit else {
            throw HapticEngineError.invalidPlayer("a curve of \(curve.controlPoints.count) points is more than the board's \(limit)")
        }
        let at = try Self.boardTime(time)
        let curve = RuntimeLayer.Curve(
            parameter: wire, at: at,
            points: curve.controlPoints.sorted { $0.time < $1.time }.map { point in
                (UInt32(min(Double(UInt32.max), max(0, (point.time * 1e6).rounded()))), WireParameter.q14(point.value, for: curve.id))
            })
        let link = try runningLink()
        await recordRuntime(curve, player: id)
        try await sendRuntime([.curve(curve)], player: id, on: link)
    }

    func setCompletion(_ handler: (@Sendable ((any Error)?) -> Void)?, for id: Int) {
        players.setCompletion(handler, for: id)
    }
}

/// The wire's numbering of dynamic parameters is messages.json's enum `parameter` (generated as
/// ``WireParameter``); this maps the model's controls onto it.
extension WireParameter {
    init?(_ id: DynamicParameterID) {
        switch id {
        case .hapticIntensityControl: self = .intensityControl
        case .hapticSharpnessControl: self = .sharpnessControl
        case .hapticAttackTimeControl: self = .attackTimeControl
        case .hapticDecayTimeControl: self = .decayTimeControl
        case .hapticReleaseTimeControl: self = .releaseTimeControl
        case .audioVolumeControl: self = .audioVolumeControl
        case .audioPanControl: self = .audioPanControl
        case .audioPitchControl: self = .audioPitchControl
        case .audioAttackTimeControl: self = .audioAttackTimeControl
        case .audioDecayTimeControl: self = .audioDecayTimeControl
        case .audioReleaseTimeControl: self = .audioReleaseTimeControl
        case .audioBrightnessControl: return nil
        }
    }

    /// The value with no effect: 1 for the multiplying controls, 0 for the others.
    var neutralQ14: Int16 { self == .intensityControl || self == .audioVolumeControl ? 16384 : 0 }

    /// A control value clamped to its range, in Q1.14.
    static func q14(_ value: Float, for id: DynamicParameterID) -> Int16 {
        Int16((Double(id.range.clamp(value)) * 16384).rounded())
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

extension HapticEngine {
    func sendRealtime(_ parameters: [DynamicParameter], player id: Int) async throws {
        let link = try runningLink()
        let values = wireValues(parameters)
        await recordRuntime(values, player: id, at: 0)
        for boardPlayer in players.boardPlayers(of: id) {
            players.touched(values.map(\.0), on: boardPlayer)
            for (wire, value) in values {
                try await link.sendUnacknowledged(.rtParam(player: UInt8(boardPlayer), parameter: wire, value: value))
            }
        }
    }
}
