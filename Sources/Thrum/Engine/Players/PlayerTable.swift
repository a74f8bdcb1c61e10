import ThrumWire

/// Which player object plays on which of the board's players, and what each holds.
///
/// Player objects are cheap and unlimited; the board has a fixed number of players (INFO). A player
/// takes a board player when it starts and gives it back when its pattern finishes, stops or is
/// cancelled. When every board player is busy, the one started longest ago is taken over (its
/// pattern is cut short, as starting a new sound would on a device with few voices).
///
/// A class: the engine's collaborators that start players (plain and streamed) share one table,
/// all on the engine's actor.
final class PlayerTable {
    private struct BoardPlayer: Sendable {
        var player: Int
        var handle: UInt8
        var startedOrder: Int
    }

    private var boardPlayers: [BoardPlayer?] = []
    /// What each board player holds from earlier starts (the board keeps rate, loop, mute and the
    /// run-time layer from one start to the next); nil when not known.
    private var boardStates: [BoardPlayerState?] = []
    private var nextPlayerID = 1
    private var startCounter = 0
    private var completions: [Int: @Sendable ((any Error)?) -> Void] = [:]
    private var settings: [Int: PlayerSettings] = [:]
    /// The locality each player was made for or moved to; a player not here plays on the engine's.
    var localities: [Int: HapticLocality] = [:]
    /// Players the engine has told that the board ignores their locality (said once each).
    var warnedUntargeted: Set<Int> = []

    func resize(to count: Int) {
        if boardPlayers.count != count { boardPlayers = Array(repeating: nil, count: max(0, count)) }
        forgetBoardStates()
    }

    /// A new connection or a reboot: what the board players hold is not known.
    func forgetBoardStates() {
        boardStates = Array(repeating: nil, count: boardPlayers.count)
    }

    /// The messages that follow a start on board player `index` so that it plays with `wanted` and
    /// a neutral run-time layer, whatever an earlier start left on it (SEMANTICS.md §3.1); records
    /// the board player as holding that.
    func preparation(of index: Int, for wanted: PlayerSettings) -> [MessageMaker] {
        let held = boardStates.indices.contains(index) ? boardStates[index] : nil
        let player = UInt8(index)
        var messages: [MessageMaker] = []
        if held?.settings.rateQ8 != wanted.rateQ8 {
            messages.append { .playerRate(tag: $0, player: player, rateQ8: wanted.rateQ8) }
        }
        if held?.settings.loopEnabled != wanted.loopEnabled
            || (wanted.loopEnabled && held?.settings.loopEnd != wanted.loopEnd)
        {
            messages.append {
                .playerLoop(tag: $0, player: player, enabled: wanted.loopEnabled, loopEnd: wanted.loopEnd)
            }
        }
        if held?.settings.muted != wanted.muted {
            messages.append { .playerMute(tag: $0, player: player, muted: wanted.muted) }
        }
        if let channels = wanted.channels {
            let list = channels.map { WireMessage.PlayerChannels.Channel(channel: $0) }
            messages.append { .playerChannels(tag: $0, player: player, atTime: 0, channels: list) }
        }
        // Pan needs no neutral step: a start leaves it unset (every channel of the set at full gain).
        for parameter in (held?.runtimeTouched ?? []).subtracting([.channelPanControl])
            .sorted(by: { $0.rawValue < $1.rawValue })
        {
            messages.append(
                RuntimeLayer.Entry.step(.init(parameter: parameter, value: parameter.neutralQ14, at: 0)).message(
                    to: player))
        }
        if boardStates.indices.contains(index) { boardStates[index] = BoardPlayerState(settings: wanted) }
        return messages
    }

    /// A setting sent to board player `index` while it plays.
    func update(_ index: Int, _ change: (inout PlayerSettings) -> Void) {
        guard boardStates.indices.contains(index), boardStates[index] != nil else { return }
        change(&boardStates[index]!.settings)
    }

    /// Run-time controls sent to board player `index`: the next start there makes them neutral.
    func touched(_ parameters: some Sequence<WireParameter>, on index: Int) {
        guard boardStates.indices.contains(index) else { return }
        var state = boardStates[index] ?? BoardPlayerState()
        state.runtimeTouched.formUnion(parameters)
        boardStates[index] = state
    }

    func register() -> Int {
        defer { nextPlayerID += 1 }
        return nextPlayerID
    }

    /// The board player `player` plays on now, if any.
    func boardPlayer(of player: Int) -> Int? {
        boardPlayers.firstIndex { $0?.player == player }
    }

    /// Every board player `player` plays on (a streamed pattern holds two, §5.4).
    func boardPlayers(of player: Int) -> [Int] {
        boardPlayers.indices.filter { boardPlayers[$0]?.player == player }
    }

    /// A board player for `player` to start `handle` on: its own if it has one, else a free one,
    /// else the one started longest ago (its pattern is cut short: `displaced` names whose).
    /// `keeping`: board players to leave alone (those a streamed pattern's pieces are on). Nil
    /// when the board has no players to give.
    func assign(_ player: Int, handle: UInt8, keeping kept: Set<Int> = []) -> (index: Int, displaced: Int?)? {
        let candidates = boardPlayers.indices.filter { !kept.contains($0) }
        guard !candidates.isEmpty else { return nil }
        startCounter += 1
        let index =
            candidates.first { boardPlayers[$0]?.player == player }
            ?? candidates.first { boardPlayers[$0] == nil }
            ?? candidates.min { boardPlayers[$0]!.startedOrder < boardPlayers[$1]!.startedOrder }!
        let displaced = boardPlayers[index].flatMap { $0.player == player ? nil : $0.player }
        boardPlayers[index] = BoardPlayer(player: player, handle: handle, startedOrder: startCounter)
        return (index, displaced)
    }

    /// The board player finished; returns the player that was on it.
    func finished(boardPlayer index: Int) -> Int? {
        guard boardPlayers.indices.contains(index), let entry = boardPlayers[index] else { return nil }
        boardPlayers[index] = nil
        return entry.player
    }

    /// Gives back every board player `player` holds.
    func release(_ player: Int) {
        for index in boardPlayers(of: player) { boardPlayers[index] = nil }
    }

    func finishAll() {
        boardPlayers = Array(repeating: nil, count: boardPlayers.count)
    }

    var activeCount: Int { boardPlayers.count { $0 != nil } }

    func isPlaying(handle: UInt8) -> Bool { boardPlayers.contains { $0?.handle == handle } }

    /// What a player was told before or while it plays; sent with every start.
    subscript(settingsOf player: Int) -> PlayerSettings {
        get { settings[player] ?? PlayerSettings() }
        set { settings[player] = newValue }
    }

    func setCompletion(_ handler: (@Sendable ((any Error)?) -> Void)?, for player: Int) {
        completions[player] = handler
    }

    func completion(of player: Int) -> (@Sendable ((any Error)?) -> Void)? { completions[player] }
}

/// What one board player was left with.
struct BoardPlayerState: Sendable, Equatable {
    var settings = PlayerSettings()
    var runtimeTouched: Set<WireParameter> = []
}

/// A player's transport settings, which outlive one start (Core Haptics' `loopEnabled`,
/// `loopEnd`, `playbackRate`, `isMuted`).
struct PlayerSettings: Sendable, Equatable {
    var loopEnabled = false
    /// Microseconds into the pattern; 0 means its end.
    var loopEnd: UInt32 = 0
    /// 1/256ths; 256 is normal speed.
    var rateQ8: UInt16 = 256
    var muted = false
    /// The board channels the player plays on, in pan order; nil = every channel. The board resets
    /// a player to every channel at each start (PROTOCOL.md, PLAYER_CHANNELS), so this is sent with
    /// every start, never left to what the board held.
    var channels: [UInt8]?
}
