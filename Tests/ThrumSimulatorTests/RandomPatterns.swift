import PropertyBased
import ThrumModel

/// Random patterns for the differential property test: every event type, parameter, dynamic
/// parameter and curve, times within 2 s so a test renders them in a few thousand ticks.
enum RandomPatterns {
    static let generator = Generator<HapticPattern, Shrink.None<HapticPattern>> { rng in pattern(using: &rng) }

    static func pattern(using rng: inout some RandomNumberGenerator) -> HapticPattern {
        var pattern = HapticPattern()
        for _ in 0..<Int.random(in: 1...8, using: &rng) {
            let type = HapticEventType.allCases.randomElement(using: &rng)!
            let duration = type.isContinuous ? Double.random(in: 0...1, using: &rng) : 0
            let parameters = EventParameterID.allCases.filter { _ in Bool.random(using: &rng) }.map { id in
                EventParameter(id, Float.random(in: id.range.min...id.range.max, using: &rng))
            }
            pattern.events.append(HapticEvent(type, time: Double.random(in: 0...1.5, using: &rng), duration: duration, parameters: parameters))
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let id = DynamicParameterID.allCases.randomElement(using: &rng)!
            pattern.parameters.append(DynamicParameter(id, value: Float.random(in: id.range.min...id.range.max, using: &rng),
                                                       time: Double.random(in: 0...1.5, using: &rng)))
        }
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let id = DynamicParameterID.allCases.randomElement(using: &rng)!
            let points = (0..<Int.random(in: 1...8, using: &rng)).map { _ in
                ControlPoint(time: Double.random(in: 0...0.8, using: &rng), value: Float.random(in: id.range.min...id.range.max, using: &rng))
            }
            pattern.parameterCurves.append(ParameterCurve(id, time: Double.random(in: 0...1.5, using: &rng), controlPoints: points))
        }
        return pattern
    }
}
