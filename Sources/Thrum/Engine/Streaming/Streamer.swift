import ThrumTimeline
import ThrumWire

/// Plays patterns larger than the board's timeline memory, piece by piece (`StreamedPlayback`).
///
/// The engine starts a playback in two steps (`prepare`, then `begin`, restarting its idle
/// countdown in between) and runs `upload` and `schedule` as tasks of its own. A method that
/// cancels a playback returns true so that the engine restarts the countdown: nothing may play
/// any more.
final class Streamer {
    /// How far ahead of the board's clock an immediate streamed start is placed, so that the
    /// pieces' handoffs can be given exact board times.
    static let startLead: Double = 20_000

    private let session: BoardSession
    private let players: PlayerTable
    private let streams: StreamTable
    private let timelines: TimelineStore
    private let log: EngineLog
    /// Pieces scheduled on the board (part of ``EngineStatistics``).
    private(set) var piecesStarted = 0

    init(session: BoardSession, players: PlayerTable, streams: StreamTable, timelines: TimelineStore, log: EngineLog) {
        self.session = session
        self.players = players
        self.streams = streams
        self.timelines = timelines
        self.log = log
    }

    func isStreaming(_ id: Int) -> Bool { streams[id] != nil }

    /// Whether `timeline` is larger than the board's timeline memory and must be streamed.
    func mustStream(_ timeline: CompiledTimeline) -> Bool {
        guard let capabilities = session.capabilities else { return false }
        return timeline.bytes.count > capabilities.timelineMemory
    }

    /// The pieces player `id` streams `timeline` in; refuses the settings streaming cannot honour.
    func pieces(of timeline: CompiledTimeline, player id: Int) throws -> [TimelineSegment] {
        let capabilities = session.capabilities
        let memory = capabilities?.timelineMemory ?? 0
        let settings = players[settingsOf: id]
        guard !settings.loopEnabled, settings.rateQ8 == 256 else {
            throw HapticEngineError.invalidPlayer(
                Self.streamedLimits(timeline, memory: memory, refusing: "loop or play at another rate"))
        }
        let pieces = try timeline.pieces.pieces(memory: memory) { try Self.cut(timeline, memory: memory) }
        if !timeline.resources.isEmpty, (capabilities?.audioSampleRate ?? 0) > 0 {
            // The pieces need the whole memory: a streamed pattern's sounds keep to the volume lane.
            log.warning(
                "streamed in pieces, so its audio resources play on the volume lane only (their samples are not sent)",
                about: .player(id))
        }
        return pieces
    }

    /// A playback the board has its first piece for, waiting for `begin`.
    struct Prepared {
        var player: Int
        var generation: Int
        var pieceCount: Int
        var boardPlayer: Int
        var start: [MessageMaker]
    }

    /// Uploads the first piece, gives it a board player and records the playback.
    nonisolated(nonsending) func prepare(_ id: Int, pieces: [TimelineSegment], at: UInt32) async throws -> Prepared {
        let link = try session.runningLink()
        let handle = try await timelines.load(CompiledTimeline(bytes: pieces[0].bytes))
        let now = await link.boardMicroseconds ?? 0
        // An immediate start goes a little ahead, on a tick, so every handoff has an exact board time.
        let tick = Double(1_000_000 / max(1, session.capabilities?.tickRate ?? 1000))
        let origin =
            at != 0 ? at : UInt32(truncatingIfNeeded: Int64(((now + Self.startLead) / tick).rounded(.up) * tick))
        guard let (boardPlayer, displaced) = players.assign(id, handle: handle).map({ ($0.index, $0.displaced) }) else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        await cutShort(displaced)
        let generation = streams.nextGeneration()
        var stream = StreamedPlayback(pieces: pieces, origin: origin, generation: generation)
        stream.handles[0] = handle
        stream.boardPlayerOfPiece[0] = boardPlayer
        streams[id] = stream
        piecesStarted += 1
        let start = pieceStart(
            boardPlayer, handle: handle, at: origin, position: 0, muted: players[settingsOf: id].muted)
        return Prepared(
            player: id, generation: generation, pieceCount: pieces.count, boardPlayer: boardPlayer, start: start)
    }

    /// Starts the first piece; true when more pieces follow (the engine then runs `upload` and
    /// `schedule`).
    nonisolated(nonsending) func begin(_ prepared: Prepared) async throws -> Bool {
        do {
            try await session.runningLink().commands(prepared.start)
        } catch {
            players.release(prepared.player)
            streams[prepared.player] = nil
            throw error
        }
        return prepared.pieceCount > 1
    }

    /// Pieces of a quarter, a third or half of the memory, whichever cut leaves the shortest piece
    /// longest (each piece must be scheduled while the one before it plays; smaller pieces let more
    /// of the pattern wait on the board, but where the events sounding fill most of a small piece,
    /// each holds only a few ms of new content).
    static func cut(_ timeline: CompiledTimeline, memory: Int) throws -> [TimelineSegment] {
        let decoded: Timeline
        do { decoded = try TimelineDecoder.decode(timeline.bytes) } catch {
            throw HapticEngineError.invalidPattern(.init(error))
        }
        var best: (pieces: [TimelineSegment], shortest: UInt32)?
        var failure: (any Error)?
        for share in [4, 3, 2] {
            do {
                let pieces = try TimelineSegmenter.segments(of: decoded, maximumBytes: memory / share)
                let shortest = pieces.compactMap { piece in piece.end.map { $0 - piece.start } }.min() ?? .max
                if shortest > best?.shortest ?? 0 { best = (pieces, shortest) }
            } catch {
                failure = error
            }
        }
        guard let best else {
            throw HapticEngineError.cannotStream(
                size: timeline.bytes.count, memory: memory, pieceSize: memory / 2,
                cause: failure.map(HapticEngineError.Cause.init))
        }
        return best.pieces
    }

    /// Uploads pieces 1, 2, … in order, each as soon as the pieces on the board and it fit the
    /// timeline memory; the pieces that finished are freed first. True when it cancelled the
    /// playback.
    nonisolated(nonsending) func upload(_ id: Int, generation: Int) async -> Bool {
        let memory = session.capabilities?.timelineMemory ?? 0
        var piece = 1
        while let stream = streams[id], stream.generation == generation, piece < stream.pieces.count,
            !stream.noMorePieces(after: piece - 1)
        {
            let bytes = stream.pieces[piece].bytes
            if stream.heldBytes + bytes.count > memory || !stream.finishedUnfreed.isEmpty {
                for done in stream.finishedUnfreed { await timelines.free(stream.pieces[done].bytes) }
                streams[id]?.finishedUnfreed.removeAll { stream.finishedUnfreed.contains($0) }
                if let current = streams[id], current.generation == generation, current.heldBytes + bytes.count > memory
                {
                    guard await streams.changed(id, generation: generation) else { return false }
                    continue
                }
            }
            do {
                let handle = try await timelines.load(CompiledTimeline(bytes: bytes))
                guard streams[id]?.generation == generation else { return false }
                streams[id]?.handles[piece] = handle
                streams.wake(id)
                piece += 1
            } catch HapticEngineError.outOfTimelineMemory(_, _) where (streams[id]?.heldBytes ?? 0) > 0 {
                // Other players' timelines fill the rest: wait for one of ours to finish.
                guard await streams.changed(id, generation: generation) else { return false }
            } catch {
                return await abandon(id, generation: generation, before: piece, error)
            }
        }
        return false
    }

    /// Schedules pieces 1, 2, … once each is on the board and the piece two before it has
    /// finished: two board players take turns, one sounding, one waiting to take over. True when
    /// it cancelled the playback.
    nonisolated(nonsending) func schedule(_ id: Int, generation: Int) async -> Bool {
        var piece = 1
        while let stream = streams[id], stream.generation == generation, !stream.noMorePieces(after: piece - 1) {
            guard let handle = stream.handles[piece], piece < 2 || stream.finishedPieces.contains(piece - 2) else {
                guard await streams.changed(id, generation: generation) else { return false }
                continue
            }
            // Nil when the piece before already ended: this one is late (an underrun) and the
            // board starts it at once, at the position the whole would have reached by then.
            let sounding = stream.boardPlayerOfPiece[piece - 1]
            let assigned = players.assign(id, handle: handle, keeping: Set(stream.boardPlayerOfPiece.values))
            guard let assigned else {
                let error = HapticEngineError.invalidPlayer(
                    "a streamed pattern needs two of the board's players; it has one")
                return await abandon(id, generation: generation, before: piece, error)
            }
            await cutShort(assigned.displaced)
            let boardPlayer = assigned.index
            streams[id]?.boardPlayerOfPiece[piece] = boardPlayer
            streams[id]?.scheduled = piece + 1
            piecesStarted += 1
            let messages = handoff(
                of: stream, piece: piece, from: sounding, to: boardPlayer, handle: handle, player: id)
            do {
                try await session.runningLink().commands(messages)
                // A stop given while these were on their way may have reached the board first.
                if stream.stopAt == nil, let stopAt = streams[id]?.stopAt {
                    try await session.runningLink().command {
                        .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt)
                    }
                }
            } catch {
                return await abandon(id, generation: generation, before: piece, error)
            }
            piece += 1
        }
        return false
    }

    /// The messages that hand `stream` over from board player `sounding` to `boardPlayer` at the
    /// start of `piece`: the stop of the one before, the start, the player's run-time controls, and
    /// the app's stop if it gave one.
    private func handoff(
        of stream: StreamedPlayback, piece: Int, from sounding: Int?, to boardPlayer: Int, handle: UInt8, player id: Int
    ) -> [MessageMaker] {
        let at = stream.handoff(of: piece)
        var messages: [MessageMaker] = []
        if let sounding { messages.append { .playerStop(tag: $0, player: UInt8(sounding), atTime: at) } }
        messages += pieceStart(
            boardPlayer, handle: handle, at: at, position: stream.pieces[piece].start * 1000,
            muted: players[settingsOf: id].muted)
        let replay = stream.runtime.replay(at: at)
        players.touched(replay.map(\.parameter), on: boardPlayer)
        messages += replay.map { $0.message(to: UInt8(boardPlayer)) }
        if let stopAt = stream.stopAt {
            messages.append { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt) }
        }
        return messages
    }

    private nonisolated(nonsending) func abandon(
        _ id: Int, generation: Int, before piece: Int, _ error: any Error
    ) async -> Bool {
        guard let stream = streams[id], stream.generation == generation else { return false }
        if (error as? HapticEngineError)?.isLossOfBoard == true, let unplayed = streams.unplayed(id) {
            streams.cutOff.append(unplayed)
        }
        log.warning(
            "streaming stopped before piece \(piece + 1) of \(stream.pieces.count): \(error)", about: .player(id),
            metadata: ["piece": "\(piece + 1)", "pieces": "\(stream.pieces.count)"])
        return await end(id, cancelling: true)
    }

    /// A board player of a streamed playback finished. True when that was one piece and the
    /// player plays on; false when the player is done, or not streamed.
    func pieceFinished(boardPlayer: Int) -> Bool {
        guard let id = streams.player(onBoardPlayer: boardPlayer),
            let piece = streams[id]!.boardPlayerOfPiece.first(where: { $0.value == boardPlayer })?.key
        else { return false }
        streams[id]!.boardPlayerOfPiece[piece] = nil
        streams[id]!.finishedPieces.insert(piece)
        streams[id]!.handles[piece] = nil
        streams[id]!.finishedUnfreed.append(piece)
        streams.wake(id)
        let stream = streams[id]!
        if stream.boardPlayerOfPiece.isEmpty && stream.noMorePieces(after: stream.scheduled - 1) {
            streams[id] = nil
            return false
        }
        _ = players.finished(boardPlayer: boardPlayer)
        return true
    }

    /// Ends player `id`'s streamed playback, if any; `cancelling` also silences its board players.
    /// True when it cancelled one (the engine restarts its idle countdown).
    nonisolated(nonsending) func end(_ id: Int, cancelling: Bool) async -> Bool {
        guard streams.remove(id) != nil, cancelling else { return false }
        let boardPlayers = players.boardPlayers(of: id)
        players.release(id)
        if let link = try? session.runningLink() {
            try? await link.commands(
                boardPlayers.map { boardPlayer in { .playerCancel(tag: $0, player: UInt8(boardPlayer)) } })
        }
        return true
    }

    /// Another start took one of `player`'s board players: a streamed playback cannot go on. The
    /// start keeps something playing, so no idle countdown is due.
    nonisolated(nonsending) func cutShort(_ player: Int?) async {
        guard let player, streams[player] != nil else { return }
        log.warning("streaming stopped: another start took one of its board players", about: .player(player))
        _ = await end(player, cancelling: true)
    }

    /// Stops player `id`'s playback at board time `at`: no piece starts from then on.
    func stop(_ id: Int, at: UInt32) {
        guard streams[id] != nil else { return }
        streams[id]?.stopAt = at
        streams.wake(id)
    }

    /// A piece's start, at normal rate without a loop, muted as the player is.
    private func pieceStart(
        _ boardPlayer: Int, handle: UInt8, at: UInt32, position: UInt32, muted: Bool
    ) -> [MessageMaker] {
        var settings = PlayerSettings()
        settings.muted = muted
        let player = UInt8(boardPlayer)
        return [{ .playerStart(tag: $0, player: player, handle: handle, atTime: at, position: position) }]
            + players.preparation(of: boardPlayer, for: settings)
    }

    /// Records run-time steps for a streamed player (nothing for others), to replay on each new
    /// piece's board player.
    nonisolated(nonsending) func recordRuntime(_ values: [(WireParameter, Int16)], player id: Int, at: UInt32) async {
        guard streams[id] != nil else { return }
        let now = await session.boardNow()
        for (parameter, value) in values {
            streams[id]?.runtime.record(
                RuntimeLayer.Step(parameter: parameter, value: value, at: at == 0 ? now : at), now: now)
        }
    }

    nonisolated(nonsending) func recordRuntime(_ curve: RuntimeLayer.Curve, player id: Int) async {
        guard streams[id] != nil else { return }
        var curve = curve
        if curve.at == 0 { curve.at = await session.boardNow() }
        streams[id]?.runtime.record(curve)
    }

    /// Refuses a transport command or setting `what` for a streamed player.
    func refuseIfStreamed(_ id: Int, _ what: String) throws {
        guard let stream = streams[id] else { return }
        throw HapticEngineError.invalidPlayer(
            "player \(id) plays a pattern larger than the board's timeline memory, streamed in \(stream.pieces.count) pieces, and cannot \(what)"
        )
    }

    static func streamedLimits(_ timeline: CompiledTimeline, memory: Int, refusing what: String) -> String {
        "this pattern (\(timeline.bytes.count) bytes) is larger than the board's timeline memory (\(memory) bytes), "
            + "so it plays streamed, piece by piece, and cannot \(what)"
    }
}
