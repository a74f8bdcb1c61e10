import Foundation
import Testing

@testable import ThrumModel

/// The reference renderer on every real pattern: output is finite, within range, silent after the
/// rendered duration, and loud somewhere for every pattern that has a haptic event.
@Suite struct RenderCorpusTests {
    @Test func everyCorpusPatternRendersWithinRange() throws {
        let files = corpusFiles("ahap") + corpusFiles("haptic")
        for file in files {
            guard let pattern = PatternFile.read(contentsOf: file).pattern else { continue }
            let duration = ReferenceRenderer.renderedDuration(of: pattern)
            #expect(duration.isFinite && duration >= pattern.duration, "\(file.lastPathComponent)")
            // 200 Hz keeps the 175 s file cheap; point samples still land inside every continuous event.
            let rendered = ReferenceRenderer.render(pattern, sampleRate: 200, duration: duration + 0.05)
            let intensity = rendered.intensity.values
            let sharpness = rendered.sharpness.values
            #expect(intensity.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, "\(file.lastPathComponent)")
            #expect(sharpness.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }, "\(file.lastPathComponent)")
            #expect(intensity.last == 0, "\(file.lastPathComponent) still sounds after its rendered duration")
            let hasContinuousHaptics = pattern.events.contains {
                $0.type == .hapticContinuous && $0.duration >= 0.01 && $0.intensity > 0
            }
            let everControlled = !pattern.parameterCurves.isEmpty || !pattern.parameters.isEmpty
            if hasContinuousHaptics && !everControlled {
                #expect(intensity.contains { $0 > 0 }, "\(file.lastPathComponent) renders silent")
            }
        }
    }
}
