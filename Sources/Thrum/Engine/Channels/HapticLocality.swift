/// Where a pattern plays: some of a board's actuator channels, or some of a rig's, in order, in the
/// manner of Game Controller's `GCHapticsLocality`. The order is the one panning moves along
/// (``HapticPatternPlayer/setPan(_:atTime:)``, SEMANTICS.md §12). ``all`` (every channel, the
/// default) is what a player without a locality plays on.
///
/// A channel is named by the name its board gives it (`left`, `thumb`), by its index (`0`), and in
/// a rig by its board too (`arm.0`, `arm.wrist`). As text: `all`, `left`, `left,right`, `0,2`,
/// `arm.wrist,glove.thumb`; `_` is a gap on the pan line (``Channel/Selector/gap``).
///
/// ```swift
/// let player = try await engine.makePlayer(with: pattern, locality: ["left", "right"])
/// ```
public struct HapticLocality: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral
{
    /// One channel of a locality.
    public struct Channel: Hashable, Sendable, CustomStringConvertible {
        /// The board it is on, by its name in a rig; nil for an engine's own board (in a rig: the
        /// one board that has such a channel).
        public var board: String?
        public var selector: Selector

        public enum Selector: Hashable, Sendable {
            case name(String)
            case index(Int)
            /// A place on the pan line with no actuator of this board (written `_`): a rig puts one
            /// where a neighbouring board's channel is, so that a pan fades out here as it fades in there.
            case gap
        }

        public init(board: String? = nil, _ selector: Selector) {
            self.board = board
            self.selector = selector
        }

        /// `left`, `2`, `arm.left`, `arm.2`.
        public init(parsing text: String) throws(HapticEngineError) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            var board: String?
            var channel = Substring(trimmed)
            if let dot = trimmed.lastIndex(of: ".") {
                board = String(trimmed[..<dot])
                channel = trimmed[trimmed.index(after: dot)...]
            }
            guard !channel.isEmpty, board?.isEmpty != true else {
                throw HapticEngineError.invalidLocality(
                    "'\(text)' names no channel (write a name, an index, or board.channel)")
            }
            self.board = board
            self.selector = channel == "_" ? .gap : Int(channel).map { .index($0) } ?? .name(String(channel))
        }

        public var description: String {
            let channel =
                switch selector {
                case .name(let name): name
                case .index(let index): String(index)
                case .gap: "_"
                }
            return board.map { "\($0).\(channel)" } ?? channel
        }
    }

    /// The channels in order, or nil for every channel.
    public let channels: [Channel]?

    public init(channels: [Channel]?) { self.channels = channels }

    /// Every channel of the board or rig.
    public static let all = HapticLocality(channels: nil)
    /// Game Controller's `.default`: every channel.
    public static let `default` = all

    /// The channels with these names, in this order.
    public static func named(_ names: String...) -> HapticLocality {
        HapticLocality(channels: names.map { Channel(.name($0)) })
    }

    /// The channels with these indices, in this order.
    public static func indices(_ indices: Int...) -> HapticLocality {
        HapticLocality(channels: indices.map { Channel(.index($0)) })
    }

    /// `all`, or channels separated by commas: `left,right`, `0,2`, `arm.wrist,glove.thumb`.
    public init(parsing text: String) throws(HapticEngineError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == "all" {
            self = .all
            return
        }
        var channels: [Channel] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            channels.append(try Channel(parsing: String(part)))
        }
        self.init(channels: channels)
    }

    /// A name or a comma-separated list, as ``init(parsing:)``; text that names no channel becomes
    /// a name that no board has, which fails when the locality is used.
    public init(stringLiteral text: String) {
        self = (try? HapticLocality(parsing: text)) ?? HapticLocality(channels: [Channel(.name(text))])
    }

    public init(arrayLiteral elements: String...) {
        self.init(stringLiteral: elements.joined(separator: ","))
    }

    public var isAll: Bool { channels == nil }

    /// Whether a channel is given by its name (resolving it needs the board's names).
    var namesChannels: Bool {
        channels?.contains { if case .name = $0.selector { true } else { false } } ?? false
    }

    public var description: String {
        channels.map { $0.map(\.description).joined(separator: ",") } ?? "all"
    }
}
