import PropertyBased
import ThrumModel
import ThrumTesting

/// Random patterns for the differential property test: short (within 2 s), so a test renders
/// them in a few thousand ticks.
enum RandomPatterns {
    static let generator = Generator<HapticPattern, Shrink.None<HapticPattern>> { rng in
        HapticPattern.random(.short, using: &rng)
    }
}
