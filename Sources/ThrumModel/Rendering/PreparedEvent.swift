/// An event reduced to what rendering needs. `start` and `duration` are board seconds from the
/// start of its playback pass (pattern time × the playback's time scale).
struct PreparedEvent: Sendable {
    enum Kind: Sendable { case transient, hapticContinuous, audioContinuous, audioCustom }

    var index: Int
    var kind: Kind
    var start: Double
    /// Time before release (continuous kinds, scaled); file length for `audioCustom` (unscaled).
    var duration: Double
    /// Intensity for haptic events, volume for audio events.
    var level: Float
    var sharpness: Float
    var attack: Float
    var decay: Float
    var release: Float
    var sustained: Bool
    /// The envelope, when it is the same in every loop pass (worked out once, for speed).
    var fixedEnvelope: ContinuousEnvelope?

    /// nil for events that cannot be placed in time (non-finite time).
    init?(_ event: HapticEvent, index: Int, timeScale: Double) {
        guard event.time.isFinite else { return nil }
        self.index = index
        start = event.time * timeScale
        let authoredDuration = event.duration.isNaN ? 0 : max(0, event.duration)
        switch event.type {
        case .hapticTransient: kind = .transient
        case .hapticContinuous: kind = .hapticContinuous
        case .audioContinuous: kind = .audioContinuous
        case .audioCustom: kind = .audioCustom
        }
        duration = kind == .audioCustom ? authoredDuration : authoredDuration * timeScale
        level = event.type.isHaptic ? event.value(of: .hapticIntensity) : event.value(of: .audioVolume)
        sharpness = event.value(of: .hapticSharpness)
        attack = event.value(of: .attackTime)
        decay = event.value(of: .decayTime)
        release = event.value(of: .releaseTime)
        sustained = event.isSustained
    }

    /// The dynamic parameters that adjust this event's envelope segments, if it has an envelope.
    var timingControls: (attack: DynamicParameterID, decay: DynamicParameterID, release: DynamicParameterID)? {
        switch kind {
        case .hapticContinuous: return (.hapticAttackTimeControl, .hapticDecayTimeControl, .hapticReleaseTimeControl)
        case .audioContinuous: return (.audioAttackTimeControl, .audioDecayTimeControl, .audioReleaseTimeControl)
        case .transient, .audioCustom: return nil
        }
    }

    /// An upper bound of how long the event's output lasts after `start`, whatever the controls.
    var longestOutput: Double {
        switch kind {
        case .transient: return TransientShape.lengthSeconds
        case .audioCustom: return duration
        case .hapticContinuous, .audioContinuous: return duration + EnvelopeTiming.maximumSeconds
        }
    }
}

/// Events of one kind family sorted by start, for finding the ones that may sound at a time.
struct EventGroup: Sendable {
    private(set) var events: [PreparedEvent]
    /// The longest output of any member: an event that started earlier than this is silent.
    private(set) var longestOutput: Double

    init(_ events: [PreparedEvent]) {
        self.events = stableSorted(events) { $0.start }
        longestOutput = events.map(\.longestOutput).max() ?? 0
    }

    /// Latest time (from the pass start) at which any member may still sound.
    var latestEnd: Double { events.map { $0.start + $0.longestOutput }.max() ?? 0 }

    /// Indices of the members that may sound at `local` seconds from the pass start.
    func candidates(at local: Double) -> Range<Int> {
        let first = upperBound(events.count) { events[$0].start >= local - longestOutput }
        let end = upperBound(events.count) { TimeResolution.snap(events[$0].start - local) > 0 }
        return first..<max(first, end)
    }
}
