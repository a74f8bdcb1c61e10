import Foundation
import ThrumModel
import ThrumWire

/// Plays one pattern on a rig locality: a player on each board the locality touches, started,
/// stopped, looped and panned at the same host instants. Times are the rig's (host seconds).
public final class RigPlayer: Sendable {
    public let rig: HapticRig
    /// The rig's number for this player.
    public let id: Int

    init(rig: HapticRig, id: Int) {
        self.rig = rig
        self.id = id
    }

    /// Starts at host time `time` (``HapticRig/timeImmediate``: 50 ms from now) on every board.
    public func start(atTime time: TimeInterval) async throws {
        try await rig.startTogether([self], atTime: time)
    }

    /// Stops at host time `time` (0: at once) on every board.
    public func stop(atTime time: TimeInterval) async throws {
        try await rig.stop(id, at: time)
    }

    /// Loops the pattern from its start to `loopEnd` seconds (0: its end) on every board; kept for
    /// later starts. Each loop boundary falls at the same host instant on every board.
    public func setLoop(enabled: Bool, loopEnd: TimeInterval = 0) async throws {
        try await rig.setLoop(id, enabled: enabled, end: loopEnd)
    }

    /// Plays on `locality` from host time `time`: boards it leaves stop, boards it reaches start
    /// where the pattern is then.
    public func setLocality(_ locality: HapticLocality, atTime time: TimeInterval) async throws {
        try await rig.move(id, to: locality, at: time)
    }

    /// Moves the pattern along the locality's channels across boards (0 the first, 1 the last).
    public func setPan(_ position: Double, atTime time: TimeInterval) async throws {
        try await rig.pan(id, to: position, at: time)
    }

    /// ``setPan(_:atTime:)`` at once over each board's real-time channel.
    public func sendRealtimePan(_ position: Double) async throws {
        try await rig.pan(id, to: position, at: nil)
    }

    /// A pan curve across boards; each board gets its share, with a point where the pan enters or
    /// leaves it.
    public func schedulePanCurve(_ points: [HapticPanPoint], atTime time: TimeInterval) async throws {
        try await rig.schedulePan(id, points, at: time)
    }

    /// Dynamic parameters on every board at host time `time`.
    public func sendParameters(_ parameters: [DynamicParameter], atTime time: TimeInterval) async throws {
        try await rig.sendParameters(id, parameters, at: time)
    }
}

/// What the rig keeps of a player: enough to bring a board that rejoins to where the others are.
struct RigPlayerState: Sendable {
    var pattern: HapticPattern
    var locality: HapticLocality
    var parts: [RigChannelMap.Part]
    /// Rig channels on the locality's pan line.
    var count: Int
    /// The board player on each board (by member index) the locality touches and that is present.
    var boardPlayers: [Int: HapticAdvancedPatternPlayer] = [:]
    /// Boards (member indices) whose part has finished since the last start.
    var finishedBoards: Set<Int> = []
    /// Host instant of the pattern's start, and of its stop.
    var startedAt: MonotonicInstant?
    var stoppedAt: MonotonicInstant?
    var loopEnabled = false
    var loopEnd: TimeInterval = 0
    var pan: Double?

    init(pattern: HapticPattern, locality: HapticLocality, parts: [RigChannelMap.Part], count: Int) {
        self.pattern = pattern
        self.locality = locality
        self.parts = parts
        self.count = count
    }

    mutating func started(at instant: MonotonicInstant) {
        startedAt = instant
        stoppedAt = nil
        finishedBoards = []
    }

    func part(on board: Int) -> RigChannelMap.Part? { parts.first { $0.board == board } }

    /// Every board it plays on has finished its part since the last start.
    var isFinished: Bool { !boardPlayers.isEmpty && boardPlayers.keys.allSatisfy(finishedBoards.contains) }

    /// Seconds into the pattern at host instant `instant`; nil when it does not play then.
    func position(at instant: MonotonicInstant) -> TimeInterval? {
        guard let startedAt, instant >= startedAt else { return nil }
        if let stoppedAt, instant >= stoppedAt { return nil }
        let elapsed = Double(instant.nanoseconds - startedAt.nanoseconds) / 1e9
        let length = loopEnd > 0 ? loopEnd : pattern.duration
        if loopEnabled, length > 0 { return elapsed.truncatingRemainder(dividingBy: length) }
        return elapsed < pattern.duration ? elapsed : nil
    }
}
