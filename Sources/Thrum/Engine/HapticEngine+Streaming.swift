import ThrumTimeline
import ThrumWire

/// Playing a pattern larger than the board's timeline memory: see `StreamedPlayback`.
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
        let pieces = try timeline.pieces.pieces(memory: memory) { try Self.cut(timeline, memory: memory) }
        if !timeline.resources.isEmpty, (capabilities?.audioSampleRate ?? 0) > 0 {
            // The pieces need the whole memory: a streamed pattern's sounds keep to the volume lane.
            emit.yield(.log(level: .warning, text: "player \(id): streamed in pieces, so its audio resources play on the volume lane only (their samples are not sent)"))
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
        var stream = StreamedPlayback(pieces: pieces, origin: origin, generation: generation)
        stream.handles[0] = handle
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
            Task { await self.upload(id, generation: generation) }
            Task { await self.schedule(id, generation: generation) }
        }
    }

    /// Pieces of a quarter, a third or half of the memory, whichever cut leaves the shortest piece
    /// longest (each piece must be scheduled while the one before it plays; smaller pieces let more
    /// of the pattern wait on the board, but where the events sounding fill most of a small piece,
    /// each holds only a few ms of new content).
    static func cut(_ timeline: CompiledTimeline, memory: Int) throws -> [TimelineSegment] {
        let decoded: Timeline
        do { decoded = try TimelineDecoder.decode(timeline.bytes) } catch {
            throw HapticEngineError.invalidPattern("\(error)")
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
            throw HapticEngineError.cannotStream(size: timeline.bytes.count, memory: memory, pieceSize: memory / 2, reason: "\(failure.map { "\($0)" } ?? "")")
        }
        return best.pieces
    }

    /// Uploads pieces 1, 2, … in order, each as soon as the pieces on the board and it fit the
    /// timeline memory; the pieces that finished are freed first.
    private func upload(_ id: Int, generation: Int) async {
        let memory = capabilities?.timelineMemory ?? 0
        var piece = 1
        while let stream = streams[id], stream.generation == generation, piece < stream.pieces.count, !stream.noMorePieces(after: piece - 1) {
            let bytes = stream.pieces[piece].bytes
            if stream.heldBytes + bytes.count > memory || !stream.finishedUnfreed.isEmpty {
                for done in stream.finishedUnfreed { await free(stream.pieces[done].bytes) }
                streams[id]?.finishedUnfreed.removeAll { stream.finishedUnfreed.contains($0) }
                if let current = streams[id], current.generation == generation, current.heldBytes + bytes.count > memory {
                    guard await changed(id, generation: generation) else { return }
                    continue
                }
            }
            do {
                let handle = try await load(CompiledTimeline(bytes: bytes))
                guard streams[id]?.generation == generation else { return }
                streams[id]?.handles[piece] = handle
                wake(id)
                piece += 1
            } catch HapticEngineError.outOfTimelineMemory(_, _) where (streams[id]?.heldBytes ?? 0) > 0 {
                // Other players' timelines fill the rest: wait for one of ours to finish.
                guard await changed(id, generation: generation) else { return }
            } catch {
                await abandon(id, generation: generation, before: piece, error)
                return
            }
        }
    }

    /// Schedules pieces 1, 2, … once each is on the board and the piece two before it has
    /// finished: two board players take turns, one sounding, one waiting to take over.
    private func schedule(_ id: Int, generation: Int) async {
        var piece = 1
        while let stream = streams[id], stream.generation == generation, !stream.noMorePieces(after: piece - 1) {
            guard let handle = stream.handles[piece], piece < 2 || stream.finishedPieces.contains(piece - 2) else {
                guard await changed(id, generation: generation) else { return }
                continue
            }
            // Nil when the piece before already ended: this one is late (an underrun) and the
            // board starts it at once, at the position the whole would have reached by then.
            let sounding = stream.boardPlayerOfPiece[piece - 1]
            let assigned = players.assign(id, handle: handle, keeping: Set(stream.boardPlayerOfPiece.values))
            guard let assigned else {
                await abandon(id, generation: generation, before: piece, HapticEngineError.invalidPlayer("a streamed pattern needs two of the board's players; it has one"))
                return
            }
            await cutShort(assigned.displaced)
            let boardPlayer = assigned.index
            streams[id]?.boardPlayerOfPiece[piece] = boardPlayer
            streams[id]?.scheduled = piece + 1
            statistics.streamedPieces += 1
            let at = stream.handoff(of: piece)
            var messages: [MessageMaker] = []
            if let sounding { messages.append { .playerStop(tag: $0, player: UInt8(sounding), atTime: at) } }
            messages += pieceStart(boardPlayer, handle: handle, at: at, position: stream.pieces[piece].start * 1000, muted: players[settingsOf: id].muted)
            let replay = stream.runtime.replay(at: at)
            players.touched(replay.map(\.parameter), on: boardPlayer)
            messages += replay.map { $0.message(to: UInt8(boardPlayer)) }
            if let stopAt = stream.stopAt { messages.append { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt) } }
            do {
                try await runningLink().commands(messages)
                // A stop given while these were on their way may have reached the board first.
                if stream.stopAt == nil, let stopAt = streams[id]?.stopAt {
                    try await runningLink().command { .playerStop(tag: $0, player: UInt8(boardPlayer), atTime: stopAt) }
                }
            } catch {
                await abandon(id, generation: generation, before: piece, error)
                return
            }
            piece += 1
        }
    }

    private func abandon(_ id: Int, generation: Int, before piece: Int, _ error: any Error) async {
        guard let stream = streams[id], stream.generation == generation else { return }
        log("player \(id): streaming stopped before piece \(piece + 1) of \(stream.pieces.count): \(error)")
        await endStream(of: id, cancelling: true)
    }

    /// Frees a finished piece's memory now rather than when the next upload finds the board full
    /// (a round trip saved where time is short).
    private func free(_ bytes: [UInt8]) async {
        guard let handle = cache.use(bytes), !players.isPlaying(handle: handle), !streamsHold(handle), let link = try? runningLink() else { return }
        cache.remove(handle: handle)
        try? await link.command { .timelineFree(tag: $0, handle: handle) }
    }

    /// Whether a streamed playback keeps `handle` for a piece still to play (not to be evicted).
    func streamsHold(_ handle: UInt8) -> Bool {
        streams.values.contains { $0.handles.values.contains(handle) }
    }

    /// Waits for the next change to player `id`'s playback (a piece uploaded or finished, a stop);
    /// false when the playback ended.
    private func changed(_ id: Int, generation: Int) async -> Bool {
        guard streams[id]?.generation == generation else { return false }
        await withCheckedContinuation { streams[id]!.waiters.append($0) }
        return streams[id]?.generation == generation
    }

    func wake(_ id: Int) {
        guard let waiters = streams[id]?.waiters, !waiters.isEmpty else { return }
        streams[id]!.waiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// A board player of a streamed playback finished. True when that was one piece and the
    /// player plays on; false when the player is done, or not streamed.
    func streamPieceFinished(boardPlayer: Int) -> Bool {
        guard let id = streams.first(where: { $0.value.boardPlayerOfPiece.values.contains(boardPlayer) })?.key,
              let piece = streams[id]!.boardPlayerOfPiece.first(where: { $0.value == boardPlayer })?.key
        else { return false }
        streams[id]!.boardPlayerOfPiece[piece] = nil
        streams[id]!.finishedPieces.insert(piece)
        streams[id]!.handles[piece] = nil
        streams[id]!.finishedUnfreed.append(piece)
        wake(id)
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
        guard let stream = streams.removeValue(forKey: id) else { return }
        for waiter in stream.waiters { waiter.resume() }
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
        let waiters = streams.values.flatMap(\.waiters)
        streams.removeAll()
        for waiter in waiters { waiter.resume() }
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
