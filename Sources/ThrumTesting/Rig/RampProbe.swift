import Thrum

/// A pattern whose start can be read back, to microseconds, from what a board rendered: one
/// continuous event at full intensity whose attack rises linearly over 29.023 ms (AttackTime 0.25,
/// SEMANTICS.md §4.1), so every rising tick says how long ago it began. Rigs are compared this way
/// (tests and `thrum-bench rig`), not to the 1 ms tick.
public enum RampProbe {
    /// The attack's length in seconds of the board's own clock (envelopes are not trimmed, §1.6).
    public static let attack = 0.029023

    public static func pattern(duration: Double = 0.2) -> HapticPattern {
        HapticPattern(events: [
            HapticEvent(
                .hapticContinuous, time: 0, duration: duration,
                parameters: [
                    EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 0.5),
                    EventParameter(.attackTime, 0.25),
                ])
        ])
    }

    /// The board time (µs) at which the ramp in `trace` began: each rising tick's time less its
    /// level times the attack, averaged over the ticks between 2 % and 90 %; nil when none rises.
    public static func start(in trace: BoardTrace) -> Double? {
        let estimates = trace.intensities.enumerated().compactMap { index, level -> Double? in
            guard level > 0.02, level < 0.9 else { return nil }
            return Double(trace.start) + Double(index * trace.tick) - level * attack * 1e6
        }
        return estimates.isEmpty ? nil : estimates.reduce(0, +) / Double(estimates.count)
    }
}
