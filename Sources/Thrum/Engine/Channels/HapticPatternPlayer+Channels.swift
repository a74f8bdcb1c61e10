/// A player's place: which channels it plays on, and where along them its pattern is.
extension HapticPatternPlayer {
    /// The locality the player plays on (its own, else its engine's).
    public var locality: HapticLocality {
        get async { await engine.locality(of: id) }
    }

    /// Plays on `locality` from engine time `time` (``HapticEngine/timeImmediate``: now) while
    /// playing, and from then on. Events that sound keep sounding, on the new channels.
    public func setLocality(_ locality: HapticLocality, atTime time: Double) async throws {
        try await engine.move(id, to: locality, at: time)
    }

    /// Moves the pattern along its locality's channels from engine time `time`: 0 is the first
    /// channel, 1 the last, in between two neighbours share it at equal power (SEMANTICS.md §12).
    /// Until the first pan after a start, every channel of the locality plays it in full.
    public func setPan(_ position: Double, atTime time: Double) async throws {
        try await engine.pan(id, to: position, at: time, realtime: false)
    }

    /// ``setPan(_:atTime:)`` at once over the real-time channel (no acknowledgement, newest wins):
    /// for a position that follows a finger or a sound source many times a second.
    public func sendRealtimePan(_ position: Double) async throws {
        try await engine.pan(id, to: position, at: 0, realtime: true)
    }

    /// A pan curve: the board moves the pattern between the points' positions every tick (1 kHz),
    /// with no further traffic. Point times are seconds after `time`. The board keeps one run-time
    /// curve per player, so this replaces a parameter curve still running, as a parameter curve
    /// replaces this.
    public func schedulePanCurve(_ points: [HapticPanPoint], atTime time: Double) async throws {
        try await engine.schedulePan(id, points, at: time)
    }
}
