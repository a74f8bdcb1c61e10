/// A rig's channels, board by board, and how a rig locality falls on each board: which of its
/// channels play, and where the board's share sits on the locality's pan line.
struct RigChannelMap: Sendable, Equatable {
    struct Board: Sendable, Equatable {
        var name: String
        /// The rig's name for each channel (the rig file's, else the board's own), nil where neither names it.
        var channelNames: [String?]
    }

    /// One rig channel: a board (by position) and a channel on it.
    struct Channel: Sendable, Hashable {
        var board: Int
        var index: Int
    }

    /// One board's share of a locality: the board-local locality (with gaps where other boards'
    /// channels are) and the span of the rig's pan line it covers.
    struct Part: Sendable, Equatable {
        var board: Int
        var locality: HapticLocality
        /// Positions `first...last` of the rig locality's pan line are this part's slots 0…
        var first: Int
        var last: Int

        /// The board's pan position for the rig's `position` (0…1 over `count` rig channels).
        func position(for position: Double, count: Int) -> Double {
            guard count > 1, last > first else { return 0 }
            let x = min(max(position, 0), 1) * Double(count - 1)
            return min(max((x - Double(first)) / Double(last - first), 0), 1)
        }

        /// The rig's pan curve as this board's: the same points mapped, plus a point wherever a
        /// segment enters or leaves the board's span (a kink the board must see).
        func curve(for points: [HapticPanPoint], count: Int) -> [HapticPanPoint] {
            guard count > 1 else { return points.map { HapticPanPoint(time: $0.time, position: 0) } }
            let edges = [Double(first), Double(last)].map { $0 / Double(count - 1) }
            var out: [HapticPanPoint] = []
            for (index, point) in points.enumerated() {
                if index > 0 {
                    let before = points[index - 1]
                    for edge in edges where (before.position - edge) * (point.position - edge) < 0 {
                        let share = (edge - before.position) / (point.position - before.position)
                        let time = before.time + share * (point.time - before.time)
                        out.append(HapticPanPoint(time: time, position: position(for: edge, count: count)))
                    }
                }
                out.append(HapticPanPoint(time: point.time, position: position(for: point.position, count: count)))
            }
            return out
        }
    }

    var boards: [Board]

    /// Every rig channel, board by board, in index order (the locality `all`).
    var all: [Channel] {
        boards.indices.flatMap { board in boards[board].channelNames.indices.map { Channel(board: board, index: $0) } }
    }

    /// The rig channels `locality` names, in its order.
    func resolve(_ locality: HapticLocality) throws(HapticEngineError) -> [Channel] {
        guard let wanted = locality.channels else { return all }
        var channels: [Channel] = []
        for channel in wanted {
            let found = try find(channel, in: locality)
            guard !channels.contains(found) else {
                throw HapticEngineError.invalidLocality("'\(locality)' names \(label(found)) twice")
            }
            channels.append(found)
        }
        return channels
    }

    /// Each board's share of `locality`, in board order. A board's slots run from its first
    /// channel on the pan line to its last, with a gap for every other board's channel between
    /// them and one on each side where the line goes on, so a pan leaves one board as it reaches
    /// the next.
    func parts(of locality: HapticLocality) throws(HapticEngineError) -> (parts: [Part], count: Int) {
        let line = try resolve(locality)
        var parts: [Part] = []
        for board in boards.indices {
            let mine = line.indices.filter { line[$0].board == board }
            guard let firstOwn = mine.first, let lastOwn = mine.last else { continue }
            let first = max(firstOwn - 1, 0)
            let last = min(lastOwn + 1, line.count - 1)
            let slots = (first...last).map { position -> HapticLocality.Channel in
                line[position].board == board
                    ? HapticLocality.Channel(.index(line[position].index)) : HapticLocality.Channel(.gap)
            }
            parts.append(Part(board: board, locality: HapticLocality(channels: slots), first: first, last: last))
        }
        return (parts, line.count)
    }

    func label(_ channel: Channel) -> String {
        let board = boards[channel.board]
        return "\(board.name).\(board.channelNames[channel.index] ?? String(channel.index))"
    }

    private func find(
        _ channel: HapticLocality.Channel, in locality: HapticLocality
    ) throws(HapticEngineError)
        -> Channel
    {
        let candidates: [Int]
        if let name = channel.board {
            guard let board = boards.firstIndex(where: { $0.name == name }) else {
                throw HapticEngineError.invalidLocality(
                    "'\(locality)': the rig has no board '\(name)' (its boards: \(boards.map(\.name).joined(separator: ", ")))"
                )
            }
            candidates = [board]
        } else {
            candidates = Array(boards.indices)
        }
        switch channel.selector {
        case .gap:
            throw HapticEngineError.invalidLocality("'\(locality)': a rig places its own gaps; name channels only")
        case .index(let index):
            guard candidates.count == 1 else {
                throw HapticEngineError.invalidLocality(
                    "'\(locality)': channel \(index) is on every board; say which: \(boards[0].name).\(index)")
            }
            let board = candidates[0]
            guard boards[board].channelNames.indices.contains(index) else {
                throw HapticEngineError.invalidLocality(
                    "'\(locality)': board '\(boards[board].name)' has \(boards[board].channelNames.count) channels, no channel \(index)"
                )
            }
            return Channel(board: board, index: index)
        case .name(let name):
            let found = candidates.flatMap { board in
                boards[board].channelNames.indices.filter { boards[board].channelNames[$0] == name }
                    .map { Channel(board: board, index: $0) }
            }
            guard found.count == 1 else {
                let known = all.map(label).joined(separator: ", ")
                throw HapticEngineError.invalidLocality(
                    found.isEmpty
                        ? "'\(locality)': no channel named '\(name)' (the rig's channels: \(known))"
                        : "'\(locality)': '\(name)' is on boards \(found.map { boards[$0.board].name }.joined(separator: " and ")); say which: board.\(name)"
                )
            }
            return found[0]
        }
    }
}
