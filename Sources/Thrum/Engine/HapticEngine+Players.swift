import Foundation
import Logging
import ThrumModel
import ThrumWire

/// Players: making them, and what their methods ask of the engine (`PlayerControls` and, for
/// patterns larger than the board's memory, `Streamer`). The engine restarts its idle countdown
/// where a player starts or gives back its board players.
extension HapticEngine {
    /// A player for `pattern`; compiling happens here, so a bad pattern fails now, not at start.
    public func makePlayer(with pattern: HapticPattern) throws -> HapticPatternPlayer {
        HapticPatternPlayer(
            engine: self, id: players.register(), timeline: try Self.compile(audioResources.resolve(pattern)))
    }

    /// A player with pause, resume, seek, loops and rate.
    public func makeAdvancedPlayer(with pattern: HapticPattern) throws -> HapticAdvancedPatternPlayer {
        HapticAdvancedPatternPlayer(
            engine: self, id: players.register(), timeline: try Self.compile(audioResources.resolve(pattern)))
    }

    /// Registers an audio file for `AudioCustom` events to name (`AudioWaveform.resourceID`);
    /// returns its ID. The board plays such an event on its audio lane for the event's duration,
    /// or, when the pattern gives none, for the file's length (WAV files; SEMANTICS.md §6.2). A
    /// board without an audio output skips audio events and the engine says so.
    ///
    /// `useVolumeEnvelope` and `loopEnabled` are what the events that play it say for
    /// `EventWaveformUseVolumeEnvelope` and `EventWaveformLoopEnabled` (Core Haptics' options).
    public func registerAudioResource(
        _ url: URL, useVolumeEnvelope: Bool = true, loopEnabled: Bool = false
    ) throws -> Int {
        try audioResources.register(url, useVolumeEnvelope: useVolumeEnvelope, loopEnabled: loopEnabled)
    }

    public func unregisterAudioResource(_ id: Int) throws {
        try audioResources.unregister(id)
    }

    /// Plays an AHAP or `.haptic` file at once.
    /// The file's warnings (values clamped, keys ignored) go to the log and the events.
    public func playPattern(from url: URL) async throws {
        let pattern = try readPattern(PatternFile.read(contentsOf: url), name: url.path)
        try await makePlayer(with: pattern).start(atTime: Self.timeImmediate)
    }

    /// Plays AHAP or `.haptic` data at once.
    public func playPattern(from data: Data) async throws {
        let pattern = try readPattern(PatternFile.read(data: data, name: "data"), name: "data")
        try await makePlayer(with: pattern).start(atTime: Self.timeImmediate)
    }

    /// The pattern read, or every error as `invalidPattern`. Nobody else sees the warnings of a
    /// pattern the engine reads itself, so they are logged (the file in the metadata).
    private func readPattern(_ result: PatternReadResult, name: String) throws(HapticEngineError) -> HapticPattern {
        guard let pattern = result.pattern else {
            throw HapticEngineError.invalidPattern(.init(PatternLoadError(file: name, diagnostics: result.diagnostics)))
        }
        for warning in result.diagnostics.warnings {
            let position: Logger.Metadata =
                warning.position.map { ["line": "\($0.line)", "column": "\($0.column)"] } ?? [:]
            log.warning("\(warning.location): \(warning.message)", about: .file(name), metadata: position)
        }
        return pattern
    }

    static func compile(_ pattern: HapticPattern) throws -> CompiledTimeline {
        try CompiledTimeline(compiling: pattern)
    }

    func startPlayer(_ id: Int, timeline: CompiledTimeline, at time: Double, position: UInt32 = 0) async throws {
        let at = try BoardSession.boardTime(time)
        players[settingsOf: id].channels = try await channelsForStart(of: id)
        warnIfAudioSkipped(timeline, player: id)
        if streamer.mustStream(timeline) { return try await startStreamed(id, timeline: timeline, at: at) }
        let waveforms = audioResources.waveformObjects(for: timeline, rate: capabilities?.audioSampleRate ?? 0)
        let start = try await controls.prepareStart(
            id, timeline: timeline, at: at, position: position, waveforms: waveforms)
        noteActivity()
        try await controls.begin([start])
    }

    func warnIfAudioSkipped(_ timeline: CompiledTimeline, player id: Int) {
        guard timeline.audioEvents > 0, let capabilities, !capabilities.audio.isPresent else { return }
        log.warning(
            "\(timeline.audioEvents) audio event\(timeline.audioEvents == 1 ? "" : "s") skipped: \(capabilities.boardName) has no audio output",
            about: .player(id))
    }

    func startStreamed(_ id: Int, timeline: CompiledTimeline, at: UInt32) async throws {
        let pieces = try streamer.pieces(of: timeline, player: id)
        if await streamer.end(id, cancelling: true) { noteActivity() }  // a start while playing restarts
        let prepared = try await streamer.prepare(id, pieces: pieces, at: at)
        noteActivity()
        guard try await streamer.begin(prepared) else { return }
        let generation = prepared.generation
        Task { if await self.streamer.upload(id, generation: generation) { self.noteActivity() } }
        Task { if await self.streamer.schedule(id, generation: generation) { self.noteActivity() } }
    }

    func stopPlayer(_ id: Int, at time: Double) async throws {
        try await controls.stop(id, at: BoardSession.boardTime(time))
    }

    func cancelPlayer(_ id: Int) async throws {
        if try await controls.cancel(id) { noteActivity() }
    }

    func send(_ command: TransportCommand, to id: Int) async throws {
        try await controls.send(command, to: id)
    }

    func apply(_ change: SettingChange, to id: Int) async throws {
        try await controls.apply(change, to: id)
    }

    func sendParameters(_ parameters: [DynamicParameter], player id: Int, at time: Double) async throws {
        try await HapticEngineError.naming(
            "sending dynamic parameters to player \(id)", lost: Self.parametersLost
        ) {
            try await controls.sendParameters(parameters, player: id, at: BoardSession.boardTime(time))
        }
    }

    func scheduleCurve(_ curve: ParameterCurve, player id: Int, at time: Double) async throws {
        try await controls.scheduleCurve(curve, player: id, at: time)
    }

    func sendRealtime(_ parameters: [DynamicParameter], player id: Int) async throws {
        try await HapticEngineError.naming(
            "sending dynamic parameters to player \(id)", lost: Self.parametersLost
        ) {
            try await controls.sendRealtime(parameters, player: id)
        }
    }

    private static let parametersLost =
        "these values, and any sent in the last few milliseconds, did not reach the board; the player stopped"

    func setCompletion(_ handler: (@Sendable ((any Error)?) -> Void)?, for id: Int) {
        players.setCompletion(handler, for: id)
    }
}
