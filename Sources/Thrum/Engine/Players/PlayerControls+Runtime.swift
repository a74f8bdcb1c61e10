import ThrumModel
import ThrumWire

/// Run-time controls (the run-time layer: intensity multiplies, sharpness adds): parameters,
/// curves, and real-time updates, sent to every board player a player sounds on and recorded for
/// a streamed player's next pieces.
extension PlayerControls {
    /// All the parameters go out back to back, one round trip for the lot.
    nonisolated(nonsending) func sendParameters(
        _ parameters: [DynamicParameter], player id: Int, at: UInt32
    ) async throws {
        try await sendParameters(wire: wireValues(parameters, player: id), player: id, at: at)
    }

    /// Wire controls (Q1.14 values) at board time `at`: the model's parameters and the pan.
    nonisolated(nonsending) func sendParameters(
        wire values: [(WireParameter, Int16)], player id: Int, at: UInt32
    ) async throws {
        let link = try session.runningLink()
        await streamer.recordRuntime(values, player: id, at: at)
        try await sendRuntime(
            values.map { .step(RuntimeLayer.Step(parameter: $0, value: $1, at: at)) }, player: id, on: link)
    }

    nonisolated(nonsending) func scheduleCurve(_ curve: ParameterCurve, player id: Int, at time: Double) async throws {
        guard let wire = WireParameter(curve.id) else {
            log.warning("\(curve.id.rawValue) has no effect on this board; skipped", about: .player(id))
            return
        }
        try await scheduleCurve(
            wire: wire, points: curve.controlPoints.map { ($0.time, WireParameter.q14($0.value, for: curve.id)) },
            player: id, at: time)
    }

    /// A curve of a wire control: points at seconds from `time`, Q1.14 values.
    nonisolated(nonsending) func scheduleCurve(
        wire: WireParameter, points: [(time: Double, value: Int16)], player id: Int, at time: Double
    ) async throws {
        let limit = session.capabilities?.maxCurvePoints ?? 16
        guard points.count <= limit else {
            throw HapticEngineError.invalidPlayer("a curve of \(points.count) points is more than the board's \(limit)")
        }
        let at = try BoardSession.boardTime(time)
        let curve = RuntimeLayer.Curve(
            parameter: wire, at: at,
            points: points.sorted { $0.time < $1.time }.map { point in
                (UInt32(min(Double(UInt32.max), max(0, (point.time * 1e6).rounded()))), point.value)
            })
        let link = try session.runningLink()
        await streamer.recordRuntime(curve, player: id)
        try await sendRuntime([.curve(curve)], player: id, on: link)
    }

    /// Sets parameters at once over the real-time channel (no acknowledgement, newest wins).
    nonisolated(nonsending) func sendRealtime(_ parameters: [DynamicParameter], player id: Int) async throws {
        try await sendRealtime(wire: wireValues(parameters, player: id), player: id)
    }

    nonisolated(nonsending) func sendRealtime(wire values: [(WireParameter, Int16)], player id: Int) async throws {
        let link = try session.runningLink()
        await streamer.recordRuntime(values, player: id, at: 0)
        for boardPlayer in players.boardPlayers(of: id) {
            players.touched(values.map(\.0), on: boardPlayer)
            for (wire, value) in values {
                try await link.sendUnacknowledged(.rtParam(player: UInt8(boardPlayer), parameter: wire, value: value))
            }
        }
    }

    /// Sends run-time controls to every board player `id` plays on (two while a streamed pattern
    /// hands over), all in one round trip.
    private nonisolated(nonsending) func sendRuntime(
        _ entries: [RuntimeLayer.Entry], player id: Int, on link: BoardLink
    ) async throws {
        let boardPlayers = players.boardPlayers(of: id)
        for boardPlayer in boardPlayers { players.touched(entries.map(\.parameter), on: boardPlayer) }
        let makes = boardPlayers.flatMap { boardPlayer in entries.map { $0.message(to: UInt8(boardPlayer)) } }
        guard !makes.isEmpty else { return }
        try await link.commands(makes)
    }

    /// The parameters the wire can carry, as wire numbers and Q1.14 values; the others are
    /// reported as skipped.
    private func wireValues(_ parameters: [DynamicParameter], player id: Int) -> [(WireParameter, Int16)] {
        parameters.compactMap { parameter in
            guard let wire = WireParameter(parameter.id) else {
                log.warning("\(parameter.id.rawValue) has no effect on this board; skipped", about: .player(id))
                return nil
            }
            return (wire, WireParameter.q14(parameter.value, for: parameter.id))
        }
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
