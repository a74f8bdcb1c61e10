import ThrumTimeline
import ThrumWire

/// A pattern larger than the board's timeline memory, playing piece by piece (PROTOCOL.md §5.4).
///
/// The timeline is cut into pieces of at most 1/depth of the board's memory (`TimelineSegmenter`;
/// depth 3 on a board with four players or more where the pattern can be cut that fine, else 2). Piece 0 starts like any pattern; piece k
/// is uploaded once piece k−depth's board player has stopped (the board's PLAYER_FINISHED is the
/// credit that says its memory may be reused), then scheduled on another board player to take
/// over at the board time where the whole would reach it, with a stop of the piece before at that
/// same instant. The board memory is the flow control: `depth` pieces at most, one sounding and the
/// others waiting, so a piece has the time the ones before it play to arrive.
struct StreamedPlayback: Sendable {
    let pieces: [TimelineSegment]
    /// Pieces on the board at most (each needs a board player of its own).
    let depth: Int
    /// Board time (µs) of the pattern's position 0.
    let origin: UInt32
    /// Tells this playback from an earlier one of the same player.
    let generation: Int
    /// The board player each scheduled piece plays on, until it finishes.
    var boardPlayerOfPiece: [Int: Int] = [:]
    /// Pieces scheduled so far (0 … scheduled − 1).
    var scheduled = 1
    var finishedPieces: Set<Int> = []
    /// When the app stopped the player (board µs; 0: at once): no piece starts from then on.
    var stopAt: UInt32?
    /// The run-time controls the app gave, replayed on each new piece's board player.
    var runtime = RuntimeLayer()
    /// The feeding task, waiting for a piece to finish.
    var waiter: CheckedContinuation<Void, Never>?

    func handoff(of piece: Int) -> UInt32 { origin &+ pieces[piece].start &* 1000 }

    /// Whether nothing more will start: the last piece is scheduled, or the app stopped it.
    func noMorePieces(after piece: Int) -> Bool {
        guard piece + 1 < pieces.count else { return true }
        guard let stopAt else { return false }
        return stopAt == 0 || Int32(bitPattern: handoff(of: piece + 1) &- stopAt) >= 0
    }
}

extension HapticEngine {
    /// How far ahead of the board's clock an immediate streamed start is placed, so that the
    /// pieces' handoffs can be given exact board times.
    static let streamStartLead: Double = 20_000

    /// Whether `timeline` is larger than the board's timeline memory and must be streamed.
    func mustStream(_ timeline: CompiledTimeline) -> Bool {
        guard let capabilities else { return false }
        return timeline.bytes.count > capabilities.timelineMemory
    }

    func startStreamed(_ id: Int, timeline: CompiledTimeline, at: UInt32) async throws {
        let memory = capabilities?.timelineMemory ?? 0
        let settings = players[settingsOf: id]
        guard !settings.loopEnabled, settings.rateQ8 == 256 else {
            throw HapticEngineError.invalidPlayer(Self.streamedLimits(timeline, memory: memory, refusing: "loop or play at another rate"))
        }
        // Smaller pieces let more wait on the board, each with more time to arrive.
        let decoded: Timeline
        do { decoded = try TimelineDecoder.decode(timeline.bytes) } catch {
            throw HapticEngineError.invalidPattern("\(error)")
        }
        let depth = (capabilities?.players ?? 0) >= 4 ? 3 : 2
        var pieces: [TimelineSegment]
        do {
            pieces = try TimelineSegmenter.segments(of: decoded, maximumBytes: memory / depth)
        } catch {
            do { pieces = try TimelineSegmenter.segments(of: decoded, maximumBytes: memory / 2) } catch {
                throw HapticEngineError.cannotStream(size: timeline.bytes.count, memory: memory, pieceSize: memory / 2, reason: "\(error)")
            }
        }
        await endStream(of: id, cancelling: true)  // a start while playing restarts
        let link = try runningLink()
        let handle = try await load(CompiledTimeline(bytes: pieces[0].bytes))
        let now = await link.boardMicroseconds ?? 0
        // An immediate start goes a little ahead, on a tick, so every handoff has an exact board time.
        let tick = Double(1_000_000 / max(1, capabilities?.tickRate ?? 1000))
        let origin = at != 0 ? at : UInt32(truncatingIfNeeded: Int64(((now + Self.streamStartLead) / tick).rounded(.up) * tick))
        guard let (boardPlayer, displaced) = players.assign(id, handle: handle).map({ ($0.index, $0.displaced) }) else {
            throw HapticEngineError.invalidPlayer("the board has no players")
        }
        await cutShort(displaced)
        streamGeneration += 1
        let generation = streamGeneration
        var stream = StreamedPlayback(pieces: pieces, depth: depth, origin: origin, generation: generation)
        stream.boardPlayerOfPiece[0] = boardPlayer
        streams[id] = stream
        statistics.streamedPieces += 1
        noteActivity()
        do {
            try await link.commands(pieceStart(boardPlayer, handle: handle, at: origin, position: 0, muted: settings.muted))
        } catch {
            players.release(id)
            streams[id] = nil
            throw error
        }
        if pieces.count > 1 {
            Task { await self.feed(id, generation: generation) }
        }
    }

    /// Uploads and schedules pieces 1, 2, … as memory frees up, until the last or a stop.
    private func feed(_ id: Int, generation: Int) async {
        var piece = 1
        while let stream = streams[id], stream.generation == generation, !stream.noMorePieces(after: piece - 1) {
            guard await room(for: piece, of: id, generation: generation) else { return }
            do {
                let handle = try await load(CompiledTimeline(bytes: stream.pieces[piece].bytes))
                guard let current = streams[id], current.generation == generation, !current.noMorePieces(after: piece - 1) else { return }
                // Nil when the piece before already ended: this one is late (an underrun) and the
                // board starts it at once, at the position the whole would have reached by then.
                let sounding = current.boardPlayerOfPiece[piece - 1]
                guard let (boardPlayer, displaced) = players.assign(id, handle: handle, keeping: Set(current.boardPlayerOfPiece.values)).map({ ($0.index, $0.displaced) }) else {
                    throw HapticEngineError.invalidPlayer("a streamed pattern needs two of the board's players; it has one")
                }
                await cutShort(displaced)
                streams[id]?.boardPlayerOfPiece[piece] = boardPlayer
                streams[id]?.scheduled = piece + 1
                statistics.streamedPieces += 1
                let at = current.handoff(of: piece)
                let position = current.pieces[piece].start * 1000
                var messages: [MessageMaker] = []
                if let sounding { messages.append { .playerStop(tag: $0, player: UInt8(sounding), atTime: at) } }
                messages += pieceStart(boardPlayer, handle: handle, at: at, position: position, muted: players[settingsOf: id].muted)
                let replay = current.runtime.replay(at: at)
                players.touched(replay.map(\.parameter), on: boardPlayer)
                messages += runtimeMessages(replay, boardPlayer: UInt8(boardPlayer))
                if let stopAt = current.stopAt { messages.append { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt) } }
                try await runningLink().commands(messages)
                // A stop given while these were on their way may have reached the board first.
                if current.stopAt == nil, let stopAt = streams[id]?.stopAt {
                    try await runningLink().command { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt) }
                }
            } catch {
                guard streams[id]?.generation == generation else { return }
                log("player \(id): streaming stopped before piece \(piece + 1) of \(stream.pieces.count): \(error)")
                await endStream(of: id, cancelling: true)
                return
            }
            piece += 1
        }
    }

    /// Waits until the board has room for `piece`: fewer than `depth` pieces on it, and their
    /// bytes and this one's within the timeline memory. Each piece that finishes meanwhile is freed
    /// at once. False when the playback ended first.
    private func room(for piece: Int, of id: Int, generation: Int) async -> Bool {
        let memory = capabilities?.timelineMemory ?? 0
        while let stream = streams[id], stream.generation == generation {
            let unfinished = (0..<stream.scheduled).filter { !stream.finishedPieces.contains($0) }
            let bytes = unfinished.reduce(stream.pieces[piece].bytes.count) { $0 + stream.pieces[$1].bytes.count }
            if unfinished.count < stream.depth && bytes <= memory { return true }
            guard let oldest = unfinished.first, await finished(oldest, of: id, generation: generation) else { return false }
            await free(stream.pieces[oldest].bytes)
        }
        return false
    }

    /// Frees a finished piece's memory now rather than when the next upload finds the board full
    /// (a round trip saved where time is short).
    private func free(_ bytes: [UInt8]) async {
        guard let handle = cache.use(bytes), !players.isPlaying(handle: handle), let link = try? runningLink() else { return }
        cache.remove(handle: handle)
        try? await link.command { .timelineFree(tag: $0, handle: handle) }
    }

    /// Waits until `piece` of player `id` has finished; false when the playback ended first.
    private func finished(_ piece: Int, of id: Int, generation: Int) async -> Bool {
        while true {
            guard let stream = streams[id], stream.generation == generation else { return false }
            if stream.finishedPieces.contains(piece) { return true }
            await withCheckedContinuation { streams[id]!.waiter = $0 }
        }
    }

    /// A board player of a streamed playback finished. True when that was one piece and the
    /// player plays on; false when the player is done, or not streamed.
    func streamPieceFinished(boardPlayer: Int) -> Bool {
        guard let id = streams.first(where: { $0.value.boardPlayerOfPiece.values.contains(boardPlayer) })?.key,
              let piece = streams[id]!.boardPlayerOfPiece.first(where: { $0.value == boardPlayer })?.key
        else { return false }
        streams[id]!.boardPlayerOfPiece[piece] = nil
        streams[id]!.finishedPieces.insert(piece)
        streams[id]!.waiter.take()?.resume()
        let stream = streams[id]!
        if stream.boardPlayerOfPiece.isEmpty && stream.noMorePieces(after: stream.scheduled - 1) {
            streams[id] = nil
            return false
        }
        _ = players.finished(boardPlayer: boardPlayer)
        return true
    }

    /// Ends player `id`'s streamed playback, if any; `cancelling` also silences its board players.
    func endStream(of id: Int, cancelling: Bool) async {
        guard var stream = streams.removeValue(forKey: id) else { return }
        stream.waiter.take()?.resume()
        guard cancelling else { return }
        let boardPlayers = players.boardPlayers(of: id)
        players.release(id)
        if let link = try? runningLink() {
            try? await link.commands(boardPlayers.map { boardPlayer in { .playerCancel(tag: $0, player: UInt8(boardPlayer)) } })
        }
        noteActivity()
    }

    /// Forgets every streamed playback (the board reset, stopped or went away).
    func forgetStreams() {
        for id in streams.keys { streams[id]!.waiter.take()?.resume() }
        streams.removeAll()
    }

    /// Another start took one of `player`'s board players: a streamed playback cannot go on.
    func cutShort(_ player: Int?) async {
        guard let player, streams[player] != nil else { return }
        log("player \(player): streaming stopped: another start took one of its board players")
        await endStream(of: player, cancelling: true)
    }

    /// A piece's start, at normal rate without a loop, muted as the player is.
    private func pieceStart(_ boardPlayer: Int, handle: UInt8, at: UInt32, position: UInt32, muted: Bool) -> [MessageMaker] {
        var settings = PlayerSettings()
        settings.muted = muted
        let player = UInt8(boardPlayer)
        return [{ .playerStart(tag: $0, player: player, handle: handle, atTime: at, position: position) }]
            + players.preparation(of: boardPlayer, for: settings)
    }

    func runtimeMessages(_ entries: [RuntimeLayer.Entry], boardPlayer: UInt8) -> [MessageMaker] {
        entries.map { entry -> MessageMaker in
            switch entry {
            case .step(let step):
                return { .playerParam(tag: $0, player: boardPlayer, parameter: step.parameter.rawValue, value: step.value, atTime: step.at) }
            case .curve(let curve):
                let points: [[String: FieldValue]] = curve.points.map { ["time": .int(Int64($0.time)), "value": .int(Int64($0.value))] }
                return { .playerCurve(tag: $0, player: boardPlayer, parameter: curve.parameter.rawValue, atTime: curve.at, points: points) }
            }
        }
    }

    /// Records run-time steps for a streamed player (nothing for others).
    func recordRuntime(_ values: [(WireParameter, Int16)], player id: Int, at: UInt32) async {
        guard streams[id] != nil else { return }
        let now = await boardNow()
        for (parameter, value) in values {
            streams[id]?.runtime.record(RuntimeLayer.Step(parameter: parameter, value: value, at: at == 0 ? now : at), now: now)
        }
    }

    func recordRuntime(_ curve: RuntimeLayer.Curve, player id: Int) async {
        guard streams[id] != nil else { return }
        var curve = curve
        if curve.at == 0 { curve.at = await boardNow() }
        streams[id]?.runtime.record(curve)
    }

    private func boardNow() async -> UInt32 {
        let micros = await link?.boardMicroseconds ?? 0
        return UInt32(truncatingIfNeeded: Int64(micros.rounded()))
    }

    static func streamedLimits(_ timeline: CompiledTimeline, memory: Int, refusing what: String) -> String {
        "this pattern (\(timeline.bytes.count) bytes) is larger than the board's timeline memory (\(memory) bytes), "
            + "so it plays streamed, piece by piece, and cannot \(what)"
    }
}
