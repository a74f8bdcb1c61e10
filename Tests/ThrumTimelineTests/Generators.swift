import PropertyBased
import ThrumModel
import ThrumTesting

@testable import ThrumTimeline

/// Random patterns and byte strings for the property tests.
enum Generators {
    /// Patterns a designer could write: times 0…3 s, values in range, every event type,
    /// parameters and curves of every control.
    static let saneGenerator = Generator<HapticPattern, Shrink.None<HapticPattern>> { rng in sanePattern(using: &rng) }

    /// Anything at all: NaN, infinities, negative and huge times, values far out of range,
    /// empty and very long curves, odd waveforms.
    static let wildGenerator = Generator<HapticPattern, Shrink.None<HapticPattern>> { rng in wildPattern(using: &rng) }

    /// Random bytes that start like a timeline often enough to get past the fixed header.
    static let bytesGenerator = Generator<[UInt8], Shrink.None<[UInt8]>> { rng in plausibleBytes(using: &rng) }

    static func sanePattern(using rng: inout some RandomNumberGenerator) -> HapticPattern {
        HapticPattern.random(.designer, using: &rng)
    }

    static func wildTime(using rng: inout some RandomNumberGenerator) -> Double {
        let choices: [Double] = [
            0, 1e-12, 0.0005, 0.0015, -0.0004, -1, .nan, .infinity, -.infinity, .greatestFiniteMagnitude,
            Double(TimelineFormat.maxTicks) / 1000, Double(TimelineFormat.maxTicks) / 1000 + 0.001, 1e300,
            .leastNonzeroMagnitude,
        ]
        return Bool.random(using: &rng) ? choices.randomElement(using: &rng)! : Double.random(in: 0...100, using: &rng)
    }

    static func wildValue(using rng: inout some RandomNumberGenerator) -> Float {
        let choices: [Float] = [
            0, 1, -1, 0.5, 2, -2, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 0.998,
            -0.996,
        ]
        return Bool.random(using: &rng) ? choices.randomElement(using: &rng)! : Float.random(in: -3...3, using: &rng)
    }

    static func wildPattern(using rng: inout some RandomNumberGenerator) -> HapticPattern {
        var pattern = sanePattern(using: &rng)
        for index in pattern.events.indices {
            if Bool.random(using: &rng) { pattern.events[index].time = wildTime(using: &rng) }
            if Bool.random(using: &rng) { pattern.events[index].duration = wildTime(using: &rng) }
            for p in pattern.events[index].parameters.indices where Bool.random(using: &rng) {
                pattern.events[index].parameters[p].value = wildValue(using: &rng)
            }
            if Int.random(in: 0...5, using: &rng) == 0 {
                pattern.events[index].waveform = [
                    AudioWaveform(path: ""), AudioWaveform(path: String(repeating: "é", count: 200)),
                    AudioWaveform(resourceID: -5), AudioWaveform(resourceID: Int.max),
                    AudioWaveform(path: "ok", resourceID: 3),
                ].randomElement(using: &rng)!
            }
        }
        for index in pattern.parameters.indices where Bool.random(using: &rng) {
            pattern.parameters[index].time = wildTime(using: &rng)
            pattern.parameters[index].value = wildValue(using: &rng)
        }
        for index in pattern.parameterCurves.indices {
            if Bool.random(using: &rng) { pattern.parameterCurves[index].time = wildTime(using: &rng) }
            for p in pattern.parameterCurves[index].controlPoints.indices where Bool.random(using: &rng) {
                pattern.parameterCurves[index].controlPoints[p] = ControlPoint(
                    time: wildTime(using: &rng), value: wildValue(using: &rng))
            }
        }
        if Int.random(in: 0...20, using: &rng) == 0 {
            // Many identical and many distinct events: shape extension indices, long varints.
            for k in 0..<300 {
                pattern.events.append(.transient(at: Double(k) * 0.7, intensity: Float(k % 150) / 149, sharpness: 0.5))
            }
        }
        return pattern
    }

    static func plausibleBytes(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = (0..<Int.random(in: 0...80, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        guard bytes.count >= 8, Int.random(in: 0...9, using: &rng) > 0 else { return bytes }
        bytes[0] = 0x54
        bytes[1] = 0x4C
        bytes[2] = 1
        bytes[3] &= [0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0xFF].randomElement(using: &rng)!
        if Int.random(in: 0...4, using: &rng) > 0 { fixChecksum(&bytes) }
        return bytes
    }

    /// Rewrites the checksum field so a mutated timeline is judged on its content.
    static func fixChecksum(_ bytes: inout [UInt8]) {
        guard bytes.count >= 8 else { return }
        let crc = CRC32.timelineChecksum(bytes)
        for index in 0..<4 { bytes[4 + index] = UInt8((crc >> (8 * UInt32(index))) & 0xFF) }
    }

    /// One random edit: flip, set, insert, delete or truncate.
    static func mutate(_ bytes: [UInt8], using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var copy = bytes
        guard !copy.isEmpty else { return [UInt8.random(in: 0...255, using: &rng)] }
        let at = Int.random(in: 0..<copy.count, using: &rng)
        switch Int.random(in: 0...4, using: &rng) {
        case 0: copy[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
        case 1: copy[at] = [0x00, 0x7F, 0x80, 0xFF, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng)!
        case 2: copy.insert(UInt8.random(in: 0...255, using: &rng), at: at)
        case 3: copy.remove(at: at)
        default: copy.removeLast(copy.count - at)
        }
        return copy
    }
}
