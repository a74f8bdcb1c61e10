/// Looping of a playback (`loopEnabled` / `loopEnd` of an advanced player).
public struct LoopSettings: Sendable, Hashable {
    /// Where each pass ends, in pattern seconds (before the playback rate). 0 means the end of
    /// the last event (its time plus its `EventDuration`), as Core Haptics defines it.
    public var loopEnd: Double

    public init(loopEnd: Double = 0) { self.loopEnd = loopEnd }
}

/// One pattern played by one player on one channel, as the renderer sees it
/// (Protocol/SEMANTICS.md §6–7). All times are board seconds.
public struct Playback: Sendable, Hashable {
    public var pattern: HapticPattern
    /// Board time at which pattern time 0 plays.
    public var startTime: Double
    /// The actuator channel the pattern plays on.
    public var channel: Int
    /// Divides the pattern's event times, durations and control times; values ≤ 0, NaN or
    /// infinity are ignored (treated as 1), as Core Haptics ignores them.
    public var playbackRate: Float
    /// Repeat the pattern until stopped; nil plays it once.
    public var loop: LoopSettings?
    /// The player's run-time controls (the second control layer), in board time.
    public var runtimeControls: [RuntimeControl]
    /// Board time at which the player stops: its output is 0 from then on. nil: it runs out.
    public var stopTime: Double?
    /// nil: a decay reads its timing control where it begins, at `start + A` (SEMANTICS.md §4.4).
    /// A board period (seconds) instead: at the first tick at or after, as a board that learns at
    /// a tick that the attack has ended (§10; the differential comparison renders this way).
    public var decayReadTick: Double?

    public init(
        pattern: HapticPattern,
        startTime: Double,
        channel: Int = 0,
        playbackRate: Float = 1,
        loop: LoopSettings? = nil,
        runtimeControls: [RuntimeControl] = [],
        stopTime: Double? = nil,
        decayReadTick: Double? = nil
    ) {
        self.pattern = pattern
        self.startTime = startTime
        self.channel = channel
        self.playbackRate = playbackRate
        self.loop = loop
        self.runtimeControls = runtimeControls
        self.stopTime = stopTime
        self.decayReadTick = decayReadTick
    }

    /// The factor applied to pattern times: 1 / playbackRate, or 1 when the rate is unusable.
    public var timeScale: Double { ControlLayer.timeScale(playbackRate) }

    /// Length of one loop pass in pattern seconds, or nil when the playback does not loop (no
    /// loop settings, or a loop length that is not a positive finite number).
    public var loopLengthInPatternTime: Double? {
        guard let loop else { return nil }
        let length = loop.loopEnd > 0 ? loop.loopEnd : pattern.endOfLastEvent
        return length.isFinite && length > 0 ? length : nil
    }
}

extension HapticPattern {
    /// The latest `time + duration` over the events (0 without events): Core Haptics' default loop end.
    public var endOfLastEvent: Double {
        events.reduce(0) { end, event in
            let eventEnd = event.time + max(0, event.duration)
            return eventEnd.isFinite ? max(end, eventEnd) : end
        }
    }
}
