import Foundation

/// The streamed playbacks under way, by player, and the waiting that paces their uploader and
/// scheduler. State only: `Streamer` decides what to send.
final class StreamTable {
    private var playbacks: [Int: StreamedPlayback] = [:]
    private var lastGeneration = 0

    var isEmpty: Bool { playbacks.isEmpty }

    subscript(player: Int) -> StreamedPlayback? {
        get { playbacks[player] }
        set { playbacks[player] = newValue }
    }

    /// A number no earlier playback had: tells a playback from an earlier one of the same player.
    func nextGeneration() -> Int {
        lastGeneration += 1
        return lastGeneration
    }

    func isCurrent(_ player: Int, generation: Int) -> Bool { playbacks[player]?.generation == generation }

    /// Whether a streamed playback keeps `handle` for a piece still to play (not to be evicted).
    func holds(_ handle: UInt8) -> Bool {
        playbacks.values.contains { $0.handles.values.contains(handle) }
    }

    /// The player whose streamed playback has a piece on board player `boardPlayer`.
    func player(onBoardPlayer boardPlayer: Int) -> Int? {
        playbacks.first { $0.value.boardPlayerOfPiece.values.contains(boardPlayer) }?.key
    }

    /// Waits for the next change to `player`'s playback (a piece uploaded or finished, a stop);
    /// false when the playback ended.
    nonisolated(nonsending) func changed(_ player: Int, generation: Int) async -> Bool {
        guard isCurrent(player, generation: generation) else { return false }
        await withCheckedContinuation { playbacks[player]!.waiters.append($0) }
        return isCurrent(player, generation: generation)
    }

    /// Wakes whoever waits for a change to `player`'s playback.
    func wake(_ player: Int) {
        guard let waiters = playbacks[player]?.waiters, !waiters.isEmpty else { return }
        playbacks[player]!.waiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Ends `player`'s playback, waking its uploader and scheduler (they see it gone and return).
    func remove(_ player: Int) -> StreamedPlayback? {
        guard let playback = playbacks.removeValue(forKey: player) else { return nil }
        for waiter in playback.waiters { waiter.resume() }
        return playback
    }

    /// Playbacks ended because the board went away, in words (`unplayed(_:)`), until the engine
    /// reports the loss.
    var cutOff: [String] = []

    /// What every playback has still to play, in words, with those already cut off: what the board
    /// that went away took with it. Empties `cutOff`.
    func takeUnplayed() -> [String] {
        defer { cutOff.removeAll() }
        return cutOff + playbacks.keys.sorted().compactMap(unplayed)
    }

    /// What `player`'s playback has still to play, in words ("player 2's streamed pattern from
    /// 4.1 s on (pieces 3–5 of 5)"); nil when nothing is left.
    func unplayed(_ player: Int) -> String? {
        guard let playback = playbacks[player] else { return nil }
        let count = playback.pieces.count
        guard let first = (0..<count).first(where: { !playback.finishedPieces.contains($0) }) else { return nil }
        let seconds = String(format: "%.1f", Double(playback.pieces[first].start) / 1000)
        return "player \(player)'s streamed pattern from \(seconds) s on (pieces \(first + 1)–\(count) of \(count))"
    }

    /// Ends every playback (the board reset, stopped or went away).
    func removeAll() {
        let waiters = playbacks.values.flatMap(\.waiters)
        playbacks.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
