import ThrumModel

/// The shape of random patterns for property tests: how many of each element, over what span of
/// time. Every event type, event parameter, dynamic parameter and curve control can appear, with
/// values within their ranges.
public struct RandomPatternShape: Sendable {
    public var events: ClosedRange<Int>
    public var parameters: ClosedRange<Int>
    public var curves: ClosedRange<Int>
    public var pointsPerCurve: ClosedRange<Int>
    /// Events, parameters and curves start within 0…`latestStart` seconds.
    public var latestStart: Double
    /// Continuous events last 0…`longestEvent` seconds.
    public var longestEvent: Double
    /// Control points lie within 0…`curveSpan` seconds of their curve's start.
    public var curveSpan: Double
    /// Transient events sometimes carry a duration too (it pads the pattern).
    public var transientDurations: Bool
    /// `AudioCustom` events sometimes name a file or a registered resource.
    public var audioWaveforms: Bool

    public init(
        events: ClosedRange<Int>, parameters: ClosedRange<Int>, curves: ClosedRange<Int>,
        pointsPerCurve: ClosedRange<Int>,
        latestStart: Double, longestEvent: Double, curveSpan: Double, transientDurations: Bool, audioWaveforms: Bool
    ) {
        self.events = events
        self.parameters = parameters
        self.curves = curves
        self.pointsPerCurve = pointsPerCurve
        self.latestStart = latestStart
        self.longestEvent = longestEvent
        self.curveSpan = curveSpan
        self.transientDurations = transientDurations
        self.audioWaveforms = audioWaveforms
    }

    /// Short patterns (within 2 s) that a rendering test plays in a few thousand ticks.
    public static let short = RandomPatternShape(
        events: 1...8, parameters: 0...2, curves: 0...2, pointsPerCurve: 1...8,
        latestStart: 1.5, longestEvent: 1, curveSpan: 0.8, transientDurations: false, audioWaveforms: false)

    /// What a designer could write: up to 10 events over 3 s, long curves, audio waveforms.
    public static let designer = RandomPatternShape(
        events: 0...10, parameters: 0...3, curves: 0...3, pointsPerCurve: 0...20,
        latestStart: 3, longestEvent: 1.5, curveSpan: 1, transientDurations: true, audioWaveforms: true)
}

extension HapticPattern {
    /// A random pattern of `shape`, drawn from `rng` (seed it for a reproducible pattern).
    public static func random(_ shape: RandomPatternShape, using rng: inout some RandomNumberGenerator) -> HapticPattern
    {
        var pattern = HapticPattern()
        for _ in 0..<Int.random(in: shape.events, using: &rng) {
            let type = HapticEventType.allCases.randomElement(using: &rng)!
            let time = Double.random(in: 0...shape.latestStart, using: &rng)
            let lasts = type.isContinuous || (shape.transientDurations && Bool.random(using: &rng))
            let duration = lasts ? Double.random(in: 0...shape.longestEvent, using: &rng) : 0
            let parameters = EventParameterID.allCases.filter { _ in Bool.random(using: &rng) }.map { id in
                EventParameter(id, Float.random(in: id.range.min...id.range.max, using: &rng))
            }
            var waveform: AudioWaveform?
            if shape.audioWaveforms, type == .audioCustom {
                switch Int.random(in: 0...2, using: &rng) {
                case 0: waveform = AudioWaveform(path: "sound\(Int.random(in: 0...3, using: &rng)).wav")
                case 1:
                    waveform = AudioWaveform(
                        resourceID: Int.random(in: 0...1000, using: &rng), loopEnabled: Bool.random(using: &rng))
                default: waveform = nil
                }
            }
            pattern.events.append(
                HapticEvent(type, time: time, duration: duration, parameters: parameters, waveform: waveform))
        }
        for _ in 0..<Int.random(in: shape.parameters, using: &rng) {
            let id = DynamicParameterID.allCases.randomElement(using: &rng)!
            pattern.parameters.append(
                DynamicParameter(
                    id, value: Float.random(in: id.range.min...id.range.max, using: &rng),
                    time: Double.random(in: 0...shape.latestStart, using: &rng)))
        }
        for _ in 0..<Int.random(in: shape.curves, using: &rng) {
            let id = DynamicParameterID.allCases.randomElement(using: &rng)!
            let points = (0..<Int.random(in: shape.pointsPerCurve, using: &rng)).map { _ in
                ControlPoint(
                    time: Double.random(in: 0...shape.curveSpan, using: &rng),
                    value: Float.random(in: id.range.min...id.range.max, using: &rng))
            }
            pattern.parameterCurves.append(
                ParameterCurve(id, time: Double.random(in: 0...shape.latestStart, using: &rng), controlPoints: points))
        }
        return pattern
    }
}
