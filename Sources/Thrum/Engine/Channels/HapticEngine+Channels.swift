import ThrumModel
import ThrumWire

/// Channels: where players play (localities), moving a pattern along its channels (panning), and
/// starting several players at one instant.
extension HapticEngine {
    /// The board's channels (names, and whether it can play a player on some of them only); nil
    /// until the engine has started once. Reading it asks the board for the names the first time.
    public var channels: BoardChannels? {
        get async { (try? await namedChannels()) ?? session.channels }
    }

    /// The channels with their names, read from the board (CHANNEL_READ) the first time.
    func namedChannels() async throws -> BoardChannels? {
        guard let channels = session.channels, !channels.namesRead else { return session.channels }
        let link = try session.runningLink()
        let named = try await readChannelNames(from: link, count: channels.count)
        session.channels = named
        return named
    }

    /// Players made without a locality play on `locality` from their next start (Game
    /// Controller's `createEngine(withLocality:)` for an engine already made). Checked against the
    /// board's channels when the engine has started and knows what it names, else at each start.
    public func setLocality(_ locality: HapticLocality) throws {
        try check(locality)
        self.locality = locality
    }

    /// Throws now for a locality that cannot resolve, when that can be known without asking the board.
    private func check(_ locality: HapticLocality) throws {
        guard let channels = session.channels, channels.namesRead || !locality.namesChannels else { return }
        _ = try channels.resolve(locality)
    }

    /// A player for `pattern` that plays on `locality`.
    public func makePlayer(with pattern: HapticPattern, locality: HapticLocality) throws -> HapticPatternPlayer {
        let player = try makePlayer(with: pattern)
        try place(player.id, at: locality)
        return player
    }

    /// An advanced player for `pattern` that plays on `locality`.
    public func makeAdvancedPlayer(
        with pattern: HapticPattern, locality: HapticLocality
    ) throws -> HapticAdvancedPatternPlayer {
        let player = try makeAdvancedPlayer(with: pattern)
        try place(player.id, at: locality)
        return player
    }

    /// The locality player `id` plays on.
    func locality(of id: Int) -> HapticLocality { players.localities[id] ?? locality }

    private func place(_ id: Int, at locality: HapticLocality) throws {
        try check(locality)
        players.localities[id] = locality
    }

    /// Reads the names of the board's channels (CHANNEL_READ, message set 1.2), all in one round trip.
    private func readChannelNames(from link: BoardLink, count: Int) async throws -> BoardChannels {
        let replies = try await link.requestAll(
            (0..<count).map { channel in { .channelRead(tag: $0, channel: UInt8(channel)) } })
        let names = replies.map { reply -> String? in
            guard case .channelReply(let answer) = reply.reply, answer.status == .ok, !answer.name.isEmpty else {
                return nil
            }
            return answer.name
        }
        return BoardChannels(names: names, canTarget: true)
    }

    /// The board channels for player `id`'s next start, nil for every channel. A board that cannot
    /// target channels plays it everywhere; the engine says so once per player.
    func channelsForStart(of id: Int) async throws -> [UInt8]? {
        let locality = locality(of: id)
        guard !locality.isAll,
            let channels = locality.namesChannels ? try await namedChannels() : session.channels
        else { return nil }
        guard let indices = try channels.resolve(locality) else { return nil }
        guard channels.canTarget else {
            if players.warnedUntargeted.insert(id).inserted {
                log.warning(
                    "locality '\(locality)' ignored: \(capabilities?.boardName ?? "the board") runs message set \(capabilities?.version.description ?? "1.1") and plays every player on every channel (channel sets need 1.2)",
                    about: .player(id))
            }
            return nil
        }
        // Every channel in index order is the board's default: nothing to send.
        return indices == Array(0..<channels.count) ? nil : indices.map(UInt8.init)
    }

    /// Moves player `id` to `locality` from engine time `time`; a player that is not playing takes
    /// it at its next start.
    func move(_ id: Int, to locality: HapticLocality, at time: Double) async throws {
        let at = try BoardSession.boardTime(time)
        players.localities[id] = locality
        let channels = try await channelsForStart(of: id)
        players[settingsOf: id].channels = channels
        let boardPlayers = players.boardPlayers(of: id)
        guard session.channels?.canTarget == true, !boardPlayers.isEmpty else { return }
        let list = (channels ?? []).map { WireMessage.PlayerChannels.Channel(channel: $0) }
        for boardPlayer in boardPlayers { players.update(boardPlayer) { $0.channels = channels } }
        try await session.runningLink().commands(
            boardPlayers.map { boardPlayer in
                { .playerChannels(tag: $0, player: UInt8(boardPlayer), atTime: at, channels: list) }
            })
    }

    /// Starts `group` together: every player's first tick at the same board instant, `time`
    /// (``timeImmediate``: as soon as every timeline is on the board), each on its own locality
    /// (Android's `CombinedVibration.startParallel`). Timelines are loaded first, then every start
    /// goes out in one burst.
    public func startTogether(_ group: [HapticPatternPlayer], atTime time: Double) async throws {
        guard group.allSatisfy({ $0.engine === self }) else {
            throw HapticEngineError.invalidPlayer("startTogether takes players of this engine only")
        }
        guard Set(group.map(\.id)).count == group.count else {
            throw HapticEngineError.invalidPlayer("startTogether was given the same player twice")
        }
        var at = try BoardSession.boardTime(time)
        var prepared: [PlayerControls.PreparedStart] = []
        var streamed: [HapticPatternPlayer] = []
        for player in group {
            players[settingsOf: player.id].channels = try await channelsForStart(of: player.id)
            warnIfAudioSkipped(player.timeline, player: player.id)
            if streamer.mustStream(player.timeline) {
                streamed.append(player)
                continue
            }
            let waveforms = audioResources.waveformObjects(
                for: player.timeline, rate: capabilities?.audioSampleRate ?? 0)
            prepared.append(
                try await controls.prepareStart(player.id, timeline: player.timeline, at: at, waveforms: waveforms))
        }
        if at == 0 {  // immediate: one instant a little ahead, so that every start is there in time
            at = await session.boardNow() &+ Self.parallelStartLead
            for index in prepared.indices { prepared[index].at = at }
        }
        noteActivity()
        try await controls.begin(prepared)
        for player in streamed { try await startStreamed(player.id, timeline: player.timeline, at: at) }
    }

    /// How far ahead an immediate parallel start is placed (µs): a burst of starts reaches a USB
    /// board within a few milliseconds.
    static let parallelStartLead: UInt32 = 20_000
}

/// Panning: one pattern moved along its locality's channels (SEMANTICS.md §12).
extension HapticEngine {
    func pan(_ id: Int, to position: Double, at time: Double, realtime: Bool) async throws {
        guard try panIsPossible(for: id) else { return }
        let value = Self.panQ14(position)
        if realtime {
            try await controls.sendRealtime(wire: [(.channelPanControl, value)], player: id)
        } else {
            try await controls.sendParameters(
                wire: [(.channelPanControl, value)], player: id, at: BoardSession.boardTime(time))
        }
    }

    func schedulePan(_ id: Int, _ points: [HapticPanPoint], at time: Double) async throws {
        guard try panIsPossible(for: id) else { return }
        try await controls.scheduleCurve(
            wire: .channelPanControl,
            points: points.map { (time: $0.time, value: Self.panQ14($0.position)) }, player: id, at: time)
    }

    private func panIsPossible(for id: Int) throws -> Bool {
        guard let channels = session.channels else { throw HapticEngineError.engineNotRunning("call start() first") }
        guard channels.canTarget else {
            log.warning(
                "pan skipped: the board cannot play a player on some channels only (message set 1.1)",
                about: .player(id))
            return false
        }
        return true
    }

    static func panQ14(_ position: Double) -> Int16 {
        Int16((min(max(position.isFinite ? position : 0, 0), 1) * 16384).rounded())
    }
}

/// One point of a pan curve: at `time` seconds after the curve's start, the pattern is at
/// `position` along its channels (0 the first, 1 the last).
public struct HapticPanPoint: Sendable, Hashable {
    public var time: Double
    public var position: Double

    public init(time: Double, position: Double) {
        self.time = time
        self.position = position
    }
}
