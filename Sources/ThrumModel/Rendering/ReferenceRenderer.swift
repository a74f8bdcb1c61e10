/// The reference renderer: what a pattern should feel like, per channel, as intensity and
/// sharpness over time. Float, simple, and the oracle the firmware is compared with.
/// Protocol/SEMANTICS.md is the normative description of every rule implemented here.
public enum ReferenceRenderer {
    /// The most samples one lane holds; longer requests are cut to this many (bounded memory).
    public static let maximumSampleCount = 10_000_000

    /// Single pattern, channel 0, from t=0 to the end of its last release tail (or `duration`).
    /// Without `duration` the lanes run to the first sample at or after the end, so they end in silence.
    public static func render(_ pattern: HapticPattern, sampleRate: Double, duration: Double? = nil) -> RenderedChannel
    {
        let end = duration ?? roundedUp(renderedDuration(of: pattern), sampleRate: sampleRate)
        return render(
            [Playback(pattern: pattern, startTime: 0)], channels: 1, sampleRate: sampleRate, from: 0, to: end)[0]
    }

    /// Several playbacks mixed per channel. Sample k of every lane is the point value at
    /// `from + k / sampleRate`, for every such time in [from, to] (both ends included).
    /// Playbacks on channels outside 0..<channels are ignored.
    public static func render(
        _ playbacks: [Playback], channels: Int, sampleRate: Double, from: Double, to: Double
    ) -> [RenderedChannel] {
        let count = sampleCount(sampleRate: sampleRate, from: from, to: to)
        let prepared = playbacks.compactMap(PreparedPlayback.init)
        return (0..<max(0, channels)).map { channel in
            let mine = prepared.filter { $0.channel == channel }
            var intensity = [Float](repeating: 0, count: count)
            var sharpness = [Float](repeating: 0, count: count)
            var audio = [Float](repeating: 0, count: count)
            for index in 0..<count {
                let mix = mixed(mine, at: from + Double(index) / sampleRate)
                intensity[index] = mix.intensity
                sharpness[index] = mix.sharpness
                audio[index] = mix.audioVolume
            }
            let lane = { (values: [Float]) in RenderedLane(sampleRate: sampleRate, startTime: from, values: values) }
            return RenderedChannel(intensity: lane(intensity), sharpness: lane(sharpness), audioVolume: lane(audio))
        }
    }

    /// Point evaluation: the intensity and sharpness of `channel` at board time `time`.
    public static func sample(
        _ playbacks: [Playback], channel: Int, at time: Double
    ) -> (intensity: Float, sharpness: Float) {
        let mix = mixed(playbacks.filter { $0.channel == channel }.compactMap(PreparedPlayback.init), at: time)
        return (mix.intensity, mix.sharpness)
    }

    /// Point evaluation of the audio volume lane of `channel` at board time `time`.
    public static func audioVolume(_ playbacks: [Playback], channel: Int, at time: Double) -> Float {
        mixed(playbacks.filter { $0.channel == channel }.compactMap(PreparedPlayback.init), at: time).audioVolume
    }

    /// How long a pattern's output lasts played once at rate 1 without run-time controls:
    /// `pattern.duration` (Apple's definition) or the end of the last envelope tail or
    /// transient, whichever is later.
    public static func renderedDuration(of pattern: HapticPattern) -> Double {
        eventSpans(of: pattern).reduce(max(0, pattern.duration.isFinite ? pattern.duration : 0)) { max($0, $1.end) }
    }

    /// Each event's output span (played once at rate 1 from t=0, no run-time controls), in event order.
    /// Events without a finite time have no span.
    public static func eventSpans(of pattern: HapticPattern) -> [EventSpan] {
        guard let prepared = PreparedPlayback(Playback(pattern: pattern, startTime: 0)) else { return [] }
        return prepared.spans().map { span in
            EventSpan(
                eventIndex: span.event.index, type: pattern.events[span.event.index].type,
                start: span.event.start, end: span.end, envelope: span.envelope)
        }
    }

    static func mixed(_ playbacks: [PreparedPlayback], at time: Double) -> Mix {
        var mix = Mix()
        guard time.isFinite else { return mix }
        for playback in playbacks { playback.accumulate(at: time, into: &mix) }
        return mix
    }

    /// `time` moved up to the next whole sample time (unchanged when it already is one, up to rounding).
    static func roundedUp(_ time: Double, sampleRate: Double) -> Double {
        guard sampleRate.isFinite, sampleRate > 0, time.isFinite else { return time }
        return (time * sampleRate * (1 - 1e-12)).rounded(.up) / sampleRate
    }

    static func sampleCount(sampleRate: Double, from: Double, to: Double) -> Int {
        guard sampleRate.isFinite, sampleRate > 0, from.isFinite, to.isFinite, to >= from else { return 0 }
        // The tiny tolerance keeps `to` itself when (to - from) * rate is a whole number up to rounding.
        let steps = ((to - from) * sampleRate * (1 + 1e-12)).rounded(.down)
        return Int(min(steps + 1, Double(maximumSampleCount)))
    }
}

/// Where one event's output lies in time (for plots and diagnostics).
public struct EventSpan: Sendable, Hashable {
    /// Index into `HapticPattern.events`.
    public var eventIndex: Int
    public var type: HapticEventType
    /// Seconds from the pattern start.
    public var start: Double
    /// When the event's output is 0 for good: transients after their fixed shape, continuous
    /// events after their release or decay tail, `AudioCustom` after their duration.
    public var end: Double
    /// The resolved envelope of continuous events; nil for transients and `AudioCustom`.
    public var envelope: ContinuousEnvelope?

    public init(eventIndex: Int, type: HapticEventType, start: Double, end: Double, envelope: ContinuousEnvelope?) {
        self.eventIndex = eventIndex
        self.type = type
        self.start = start
        self.end = end
        self.envelope = envelope
    }
}
