import ThrumWire

/// What an engine knows of its board's actuator channels: their names, and whether the board can
/// play a player on some of them only. Boards of message set 1.2 and later can (PLAYER_CHANNELS,
/// CHANNEL_READ); an earlier board plays every player on every channel and names none.
public struct BoardChannels: Sendable, Equatable {
    /// Each channel's name from the board's configuration, by index; nil where it has none.
    public var names: [String?]
    /// Whether the board takes PLAYER_CHANNELS (message set 1.2): false means every player plays
    /// on every channel, whatever its locality.
    public var canTarget: Bool

    /// Whether `names` holds what the board said (CHANNEL_READ), not yet only nils.
    var namesRead: Bool

    public init(names: [String?], canTarget: Bool) {
        self.names = names
        self.canTarget = canTarget
        namesRead = true
    }

    /// A board's channels before their names are asked for: they are read when a locality first
    /// names a channel (or ``HapticEngine/channels`` is read), so a start costs no round trip more.
    init(unnamed count: Int, canTarget: Bool) {
        names = Array(repeating: nil, count: count)
        self.canTarget = canTarget
        namesRead = !canTarget  // a board before 1.2 has no names to read
    }

    /// A board of message set 1.2 or later takes channel sets and names its channels.
    static func supportsTargeting(_ version: ProtocolVersion) -> Bool {
        version.major > 1 || (version.major == 1 && version.minor >= 2)
    }

    public var count: Int { names.count }

    /// A gap in a resolved locality: on the wire, channel 255 of PLAYER_CHANNELS.
    public static let gapIndex = 255

    /// A channel's name, else its index as text.
    public func label(_ index: Int) -> String {
        names.indices.contains(index) ? names[index] ?? String(index) : String(index)
    }

    /// The channel indices `locality` names, in its order (``gapIndex`` for a gap), or nil for
    /// every channel. Throws when a channel is not on this board, is named twice, or names a board
    /// (only a rig has boards).
    public func resolve(_ locality: HapticLocality) throws(HapticEngineError) -> [Int]? {
        guard let wanted = locality.channels else { return nil }
        var indices: [Int] = []
        for channel in wanted {
            if let board = channel.board {
                throw HapticEngineError.invalidLocality(
                    "'\(channel)' names board '\(board)'; an engine has one board (a rig, HapticRig, has several)")
            }
            let index = try self.index(of: channel.selector, in: locality)
            guard index == Self.gapIndex || !indices.contains(index) else {
                throw HapticEngineError.invalidLocality("'\(locality)' names channel \(label(index)) twice")
            }
            indices.append(index)
        }
        return indices
    }

    func index(
        of selector: HapticLocality.Channel.Selector, in locality: HapticLocality
    ) throws(HapticEngineError)
        -> Int
    {
        switch selector {
        case .gap: return Self.gapIndex
        case .index(let index):
            guard names.indices.contains(index) else {
                throw HapticEngineError.invalidLocality(
                    "'\(locality)': channel \(index) does not exist; the board has \(count) (\(listing))")
            }
            return index
        case .name(let name):
            if let index = names.firstIndex(of: name)
                ?? names.firstIndex(where: { $0?.lowercased() == name.lowercased() })
            {
                return index
            }
            throw HapticEngineError.invalidLocality(
                "'\(locality)': the board has no channel named '\(name)' (its channels: \(listing))")
        }
    }

    /// `0 left, 1 right`: every channel, for messages.
    public var listing: String {
        names.indices.map { index in names[index].map { "\(index) \($0)" } ?? "\(index)" }.joined(separator: ", ")
    }
}
