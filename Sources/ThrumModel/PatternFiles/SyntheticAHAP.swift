import Foundation

/// Large, realistic AHAP files for benchmarks and scale tests, the same for the same seed.
///
/// A mix of transients (70 %) and continuous events (30 %) a few milliseconds apart, each with intensity
/// and sharpness; every 1,000th element is a four-point intensity curve, every 5,000th a sharpness
/// parameter. Written by `AHAPWriter` (pretty: one element per line).
public enum SyntheticAHAP {
    public static func make(events: Int, seed: UInt64) -> Data {
        AHAPWriter.data(for: pattern(events: events, seed: seed), pretty: true)
    }

    /// The pattern `make` writes.
    public static func pattern(events count: Int, seed: UInt64) -> HapticPattern {
        var random = SplitMix64(seed: seed)
        var events: [HapticEvent] = []
        events.reserveCapacity(count)
        var curves: [ParameterCurve] = []
        var parameters: [DynamicParameter] = []
        var time = 0.0
        for index in 0..<count {
            let intensity = random.unitValue()
            let sharpness = random.unitValue()
            if random.next() % 10 < 7 {
                events.append(.transient(at: time, intensity: intensity, sharpness: sharpness))
            } else {
                let duration = Double(50 + random.next() % 450) / 1000
                events.append(.continuous(at: time, duration: duration, intensity: intensity, sharpness: sharpness))
            }
            if index % 1000 == 999 {
                let points = (0..<4).map { ControlPoint(time: Double($0) * 0.05, value: random.unitValue()) }
                curves.append(ParameterCurve(.hapticIntensityControl, time: time, controlPoints: points))
            }
            if index % 5000 == 4999 {
                parameters.append(
                    DynamicParameter(.hapticSharpnessControl, value: random.unitValue() - 0.5, time: time))
            }
            time = ((time + Double(1 + random.next() % 200) / 10_000) * 10_000).rounded() / 10_000
        }
        return HapticPattern(
            version: 1.0,
            metadata: ["Project": "Thrum synthetic", "Description": "\(count) events, seed \(seed)"],
            events: events, parameters: parameters, parameterCurves: curves)
    }
}

/// A small deterministic random generator (SplitMix64), so that generated files never change.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0…1 with three decimals, as authoring tools write them.
    mutating func unitValue() -> Float { Float(next() % 1001) / 1000 }
}
