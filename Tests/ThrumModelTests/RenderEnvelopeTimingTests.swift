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
}
