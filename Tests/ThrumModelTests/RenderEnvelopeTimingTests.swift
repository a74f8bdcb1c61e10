import Foundation
import Testing

@testable import ThrumModel

/// SEMANTICS.md §4.1: the 17-entry exponential time table.
@Suite struct RenderEnvelopeTimingTests {
    @Test func endpointsAreZeroAndOneSecond() {
        #expect(EnvelopeTiming.attackSeconds(0) == 0)
        #expect(EnvelopeTiming.decaySeconds(1) == 1)
        #expect(EnvelopeTiming.releaseSeconds(1) == 1)
    }

    @Test func tableEntriesAreHitExactly() {
        #expect(EnvelopeTiming.seconds(for: 0.5) == 0.111111)
        #expect(EnvelopeTiming.seconds(for: 0.25) == 0.029023)
        #expect(EnvelopeTiming.seconds(for: 0.0625) == 0.004712)
    }

    @Test func betweenEntriesIsLinear() {
        // Halfway between i = 8 (111111 µs) and i = 9 (148805 µs).
        let v = Float(8.5 / 16)
        #expect(abs(EnvelopeTiming.seconds(for: v) - 0.129958) < 1e-6)
    }

    @Test func outOfRangeAndNaNAreClamped() {
        #expect(EnvelopeTiming.seconds(for: -3) == 0)
        #expect(EnvelopeTiming.seconds(for: 7) == 1)
        #expect(EnvelopeTiming.seconds(for: .nan) == 0)
    }

    @Test func tableMatchesTheClosedFormItWasMadeFrom() {
        for (index, micros) in EnvelopeTiming.tableMicroseconds.enumerated() {
            let v = Double(index) / 16
            let closedForm = 1e6 * (pow(2, 6 * v) - 1) / 63
            #expect(abs(Double(micros) - closedForm) <= 0.5, "entry \(index)")
        }
    }

    @Test func increasesStrictly() {
        var previous = -1.0
        for step in 0...256 {
            let seconds = EnvelopeTiming.seconds(for: Float(step) / 256)
            #expect(seconds > previous)
            previous = seconds
        }
    }

    /// §10: a board reads a decay's control at its first tick after the attack. The attack here
    /// lasts 4.712 ms and a decay-time step arrives at 4.9 ms: read at 4.712 ms the decay is
    /// 111 ms (value 0.5); read at the 5 ms tick it is 1 s (0.5 + 0.5).
    @Test func decayReadTickMovesTheDecayReadToTheTick() {
        let event = HapticEvent(
            .hapticContinuous, time: 0, duration: 2,
            parameters: [
                EventParameter(.hapticIntensity, 1), EventParameter(.sustained, 0),
                EventParameter(.attackTime, 0.0625), EventParameter(.decayTime, 0.5),
            ])
        let pattern = HapticPattern(
            events: [event], parameters: [DynamicParameter(.hapticDecayTimeControl, value: 0.5, time: 0.0049)])
        func intensity(at time: Double, tick: Double?) -> Float {
            ReferenceRenderer.sample(
                [Playback(pattern: pattern, startTime: 0, decayReadTick: tick)], channel: 0, at: time
            ).intensity
        }
        #expect(intensity(at: 0.2, tick: nil) == 0, "a 111 ms decay is over by 0.2 s")
        #expect(intensity(at: 0.2, tick: 0.001) > 0.7, "a 1 s decay is not")
    }
}
