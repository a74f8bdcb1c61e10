import Foundation
import ThrumModel
import ThrumWire

/// What rig players ask of the rig: each command goes to the player's part on every board, at the
/// board time of one host instant.
extension HapticRig {
    func state(_ id: Int) throws -> RigPlayerState {
        guard let state = players[id] else { throw HapticEngineError.invalidPlayer("rig player \(id) is gone") }
        return state
    }

    /// A board's engine time for host time `time`: 0 (at once) stays 0.
    func boardSeconds(_ engine: HapticEngine, _ time: TimeInterval) async throws -> Double {
        guard time != 0 else { return 0 }
        return try await boardSeconds(engine, at: hostInstant(time))
    }

    func boardSeconds(_ engine: HapticEngine, at instant: MonotonicInstant) async throws -> Double {
        guard let board = await engine.boardMicroseconds(atHost: instant) else {
            throw HapticEngineError.engineNotRunning("\(engine.device) has no clock estimate yet")
        }
        return max(board, 1) / 1e6
    }

    func stop(_ id: Int, at time: TimeInterval) async throws {
        let state = try state(id)
        players[id]?.stoppedAt = time == 0 ? clock.now : try hostInstant(time)
        try await eachBoard { board, engine in
            guard let part = state.boardPlayers[board] else { return }
            try await part.stop(atTime: try await self.boardSeconds(engine, time))
        }
    }

    func setLoop(_ id: Int, enabled: Bool, end: TimeInterval) async throws {
        let state = try state(id)
        players[id]?.loopEnabled = enabled
        players[id]?.loopEnd = end
        try await eachBoard { board, _ in
            try await state.boardPlayers[board]?.setLoop(enabled: enabled, loopEnd: end)
        }
    }

    func sendParameters(_ id: Int, _ parameters: [DynamicParameter], at time: TimeInterval) async throws {
        let state = try state(id)
        try await eachBoard { board, engine in
            guard let part = state.boardPlayers[board] else { return }
            try await part.sendParameters(parameters, atTime: try await self.boardSeconds(engine, time))
        }
    }

    /// `at` nil: at once over the real-time channel.
    func pan(_ id: Int, to position: Double, at time: TimeInterval?) async throws {
        let state = try state(id)
        players[id]?.pan = position
        try await eachBoard { board, engine in
            guard let player = state.boardPlayers[board], let part = state.part(on: board) else { return }
            let local = part.position(for: position, count: state.count)
            if let time {
                try await player.setPan(local, atTime: try await self.boardSeconds(engine, time))
            } else {
                try await player.sendRealtimePan(local)
            }
        }
    }

    func schedulePan(_ id: Int, _ points: [HapticPanPoint], at time: TimeInterval) async throws {
        let state = try state(id)
        try await eachBoard { board, engine in
            guard let player = state.boardPlayers[board], let part = state.part(on: board) else { return }
            try await player.schedulePanCurve(
                part.curve(for: points, count: state.count), atTime: try await self.boardSeconds(engine, time))
        }
    }

    /// Moves a player to `locality` at host time `time`: boards in both move their part, boards
    /// it leaves stop, boards it reaches start where the pattern is then (when it plays).
    func move(_ id: Int, to locality: HapticLocality, at time: TimeInterval) async throws {
        var state = try state(id)
        let (parts, count) = try map.parts(of: locality)
        let at = time == 0 ? clock.now : try hostInstant(time)
        for old in state.parts where !parts.contains(where: { $0.board == old.board }) {
            if let player = state.boardPlayers.removeValue(forKey: old.board), let engine = members[old.board].engine {
                try await player.stop(atTime: try await boardSeconds(engine, at: at))
            }
        }
        for part in parts where members[part.board].isPresent {
            guard let engine = members[part.board].engine else { continue }
            if let player = state.boardPlayers[part.board] {
                try await player.setLocality(
                    part.locality, atTime: time == 0 ? 0 : try await boardSeconds(engine, at: at))
            } else {
                let player = try await makePart(part, pattern: state.pattern, on: part.board)
                state.boardPlayers[part.board] = player
                try await resume(player, of: state, on: engine, part: part, count: count, at: at)
            }
        }
        state.locality = locality
        state.parts = parts
        state.count = count
        players[id] = state
    }

    /// Starts a part where the rig's player is at host instant `at` (a board it reached, a board
    /// that rejoined), with the player's loop and pan; nothing when the player does not play then.
    func resume(
        _ player: HapticAdvancedPatternPlayer, of state: RigPlayerState, on engine: HapticEngine,
        part: RigChannelMap.Part, count: Int, at instant: MonotonicInstant
    ) async throws {
        if state.loopEnabled { try await player.setLoop(enabled: true, loopEnd: state.loopEnd) }
        guard let position = state.position(at: instant) else { return }
        let boardTime = try await boardSeconds(engine, at: instant)
        let drift = await engine.clockEstimate?.drift
        if let index = members.firstIndex(where: { $0.engine === engine }),
            let trim = anchorIfFirst(index, board: boardTime * 1e6, host: instant, drift: drift)
        {
            try? await engine.setClockTrim(partsPerBillion: trim)
        }
        try await engine.start(
            player, atBoardTime: UInt32(truncatingIfNeeded: Int64((boardTime * 1e6).rounded())),
            position: UInt32(max(0, (position * 1e6).rounded())))
        if let pan = state.pan {
            try await player.setPan(part.position(for: pan, count: count), atTime: boardTime)
        }
    }
}

/// Players finishing.
extension HapticRig {
    /// Member `index`'s board finished its player `boardPlayer`: the rig player it is a part of
    /// finishes once its part on every board has.
    func boardPlayerFinished(_ boardPlayer: Int, on index: Int) {
        guard let id = players.first(where: { $0.value.boardPlayers[index]?.id == boardPlayer })?.key else { return }
        players[id]?.finishedBoards.insert(index)
        reportIfFinished(id)
    }

    func reportIfFinished(_ id: Int) {
        guard players[id]?.isFinished == true else { return }
        players[id]?.finishedBoards = []
        emit.yield(.playerFinished(player: id))
    }
}

/// Boards leaving and coming back.
extension HapticRig {
    /// Member `index`'s board went away: the others play on; the rig tries it again.
    func left(_ index: Int, engine: HapticEngine, cause: HapticEngineError) {
        guard members[index].engine === engine, members[index].isPresent else { return }
        members[index].isPresent = false
        members[index].leftAt = clock.now
        emit.yield(.boardLeft(board: members[index].board.name, cause: cause))
        for id in players.keys.sorted() {
            players[id]?.boardPlayers[index] = nil
            // The boards still here may all have finished already.
            reportIfFinished(id)
        }
        let (clock, interval) = (clock, rejoinInterval)
        members[index].rejoin?.cancel()
        members[index].rejoin = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(until: clock.now + interval) } catch { return }
                guard let self else { return }
                if await self.rejoin(index) { return }
            }
        }
    }

    /// Tries member `index` again; true when it is back and its players play in step.
    func rejoin(_ index: Int) async -> Bool {
        let old = members[index].engine
        do { try await join(index) } catch { return false }
        await old?.stop()
        let back = clock.now
        let at = back + Self.immediateLead
        guard let engine = members[index].engine else { return false }
        if let drift = members[index].lastDrift, let trim = members[index].discipline.seed(drift: drift) {
            try? await engine.setClockTrim(partsPerBillion: trim)
        }
        for id in players.keys.sorted() {
            guard let state = players[id], let part = state.part(on: index) else { continue }
            do {
                let player = try await makePart(part, pattern: state.pattern, on: index)
                players[id]?.boardPlayers[index] = player
                try await resume(player, of: state, on: engine, part: part, count: state.count, at: at)
            } catch {
                emit.yield(
                    .engine(
                        board: members[index].board.name, .log(level: .warning, text: "rejoin: player \(id): \(error)"))
                )
            }
        }
        let seconds = { (instant: MonotonicInstant) in Double(instant.nanoseconds) / 1e9 }
        emit.yield(
            .boardRejoined(
                board: members[index].board.name, leftAt: seconds(members[index].leftAt ?? back),
                answeredAt: seconds(back), inStepAt: seconds(at)))
        return true
    }
}
