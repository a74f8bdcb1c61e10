import ThrumModel
import ThrumWire

/// What players do on the board: starts (of patterns the board's memory holds), stops, cancels,
/// transport commands and settings. Run-time controls are in PlayerControls+Runtime.swift;
/// streamed patterns are the `Streamer`'s.
///
/// A start comes in two steps (`prepareStart`, then `begin`) so that the engine restarts its idle
/// countdown between them, once the player holds a board player.
final class PlayerControls {
    let session: BoardSession
    let players: PlayerTable
    let streamer: Streamer
    private let timelines: TimelineStore
    let log: EngineLog

    init(session: BoardSession, players: PlayerTable, streamer: Streamer, timelines: TimelineStore, log: EngineLog) {
        self.session = session
        self.players = players
        self.streamer = streamer
        self.timelines = timelines
        self.log = log
    }

    /// A start whose player holds a board player, its messages not sent yet: the start at board
    /// time `at` from `position` µs into the pattern, then the player's settings.
    struct PreparedStart {
        var player: Int
        var boardPlayer: UInt8
        var handle: UInt8
        var at: UInt32
        var position: UInt32
        var settings: [MessageMaker]

        var messages: [MessageMaker] {
            let (player, handle, at, position) = (boardPlayer, handle, at, position)
            return [{ .playerStart(tag: $0, player: player, handle: handle, atTime: at, position: position) }]
                + settings
        }
    }

    /// Loads the timeline and the waveform objects it plays, and gives the player a board player.
    nonisolated(nonsending) func prepareStart(
        _ id: Int, timeline: CompiledTimeline, at: UInt32, position: UInt32 = 0,
        waveforms: [TimelineStore.PreparedWaveform]
    ) async throws -> PreparedStart {
        let kept = try await timelines.loadWaveforms(waveforms, player: id, log: log)
        let handle = try await timelines.load(timeline, keeping: kept)
        guard let assigned = players.assign(id, handle: handle) else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        await streamer.cutShort(assigned.displaced)
        // The start and the player's settings go together, so the first tick already has them.
        return PreparedStart(
            player: id, boardPlayer: UInt8(assigned.index), handle: handle, at: at, position: position,
            settings: players.preparation(of: assigned.index, for: players[settingsOf: id]))
    }

    /// Sends the starts back to back (several: a parallel start); a failure gives back every
    /// player's board player.
    nonisolated(nonsending) func begin(_ starts: [PreparedStart]) async throws {
        do {
            try await session.runningLink().commands(starts.flatMap(\.messages))
        } catch {
            for start in starts { players.release(start.player) }
            throw error
        }
    }

    /// Stops every board player the player sounds on (two while a streamed pattern hands over).
    nonisolated(nonsending) func stop(_ id: Int, at: UInt32) async throws {
        streamer.stop(id, at: at)
        let boardPlayers = players.boardPlayers(of: id)
        guard !boardPlayers.isEmpty else { return }  // not playing: nothing to stop
        try await session.runningLink().commands(
            boardPlayers.map { boardPlayer in { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: at) } })
    }

    /// Stops at once; true when the player gave back its board players (the engine restarts its
    /// idle countdown).
    nonisolated(nonsending) func cancel(_ id: Int) async throws -> Bool {
        if streamer.isStreaming(id) { return await streamer.end(id, cancelling: true) }
        guard let boardPlayer = players.boardPlayer(of: id) else { return false }
        try await session.runningLink().command { .playerCancel(tag: $0, player: UInt8(boardPlayer)) }
        players.release(id)
        return true
    }

    /// Sends a transport command for the board player `id` plays on; a player that is not
    /// playing ignores it; a streamed one refuses it.
    nonisolated(nonsending) func send(_ command: TransportCommand, to id: Int) async throws {
        let link = try session.runningLink()
        try streamer.refuseIfStreamed(id, command.name)
        guard let boardPlayer = players.boardPlayer(of: id) else { return }
        try await link.command { command.message(tag: $0, player: UInt8(boardPlayer)) }
    }

    /// Records a setting and, if the player is playing, sends it now (to each board player).
    nonisolated(nonsending) func apply(_ change: SettingChange, to id: Int) async throws {
        if let refused = change.refusedWhenStreamed { try streamer.refuseIfStreamed(id, refused) }
        change.apply(to: &players[settingsOf: id])
        let boardPlayers = players.boardPlayers(of: id)
        guard !boardPlayers.isEmpty else { return }
        for boardPlayer in boardPlayers { players.update(boardPlayer, change.apply(to:)) }
        try await session.runningLink().commands(
            boardPlayers.map { boardPlayer in { change.message(tag: $0, player: UInt8(boardPlayer)) } })
    }
}

/// A command that moves a playing player (advanced players only).
enum TransportCommand: Sendable {
    case pause(at: UInt32)
    case resume(at: UInt32)
    case seek(position: UInt32)

    /// What a streamed player is refused (`refuseIfStreamed`'s words).
    var name: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .seek: "seek"
        }
    }

    func message(tag: UInt16, player: UInt8) -> WireMessage {
        switch self {
        case .pause(let at): .playerPause(tag: tag, player: player, atTime: at)
        case .resume(let at): .playerResume(tag: tag, player: player, atTime: at)
        case .seek(let position): .playerSeek(tag: tag, player: player, position: position, atTime: 0)
        }
    }
}

/// A change to a player's settings, kept for later starts and sent at once to a playing player.
enum SettingChange: Sendable {
    case mute(Bool)
    case loop(enabled: Bool, end: UInt32)
    case rate(q8: UInt16)

    /// What a streamed player cannot do, in `refuseIfStreamed`'s words; nil when it can (mute).
    var refusedWhenStreamed: String? {
        switch self {
        case .mute: nil
        case .loop: "loop"
        case .rate: "change its playback rate"
        }
    }

    func apply(to settings: inout PlayerSettings) {
        switch self {
        case .mute(let muted): settings.muted = muted
        case .loop(let enabled, let end):
            settings.loopEnabled = enabled
            settings.loopEnd = end
        case .rate(let q8): settings.rateQ8 = q8
        }
    }

    func message(tag: UInt16, player: UInt8) -> WireMessage {
        switch self {
        case .mute(let muted): .playerMute(tag: tag, player: player, muted: muted)
        case .loop(let enabled, let end): .playerLoop(tag: tag, player: player, enabled: enabled, loopEnd: end)
        case .rate(let q8): .playerRate(tag: tag, player: player, rateQ8: q8)
        }
    }
}
