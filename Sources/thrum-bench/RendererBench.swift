import ThrumModel

/// How fast the reference renderer produces samples (release build): it is the oracle for
/// differential tests and the source of `thrum render` plots, so long patterns at high rates
/// must stay quick.
var rendererSuite: Suite {
    Suite(name: "renderer", summary: "reference renderer throughput") {
        let dense = RendererBenchPatterns.dense()
        let denseSamples = 8_000 * 10
        let denseSeconds = RendererBenchPatterns.seconds {
            _ = ReferenceRenderer.render(dense, sampleRate: 8_000, duration: 10)
        }
        let looping = [
            Playback(
                pattern: RendererBenchPatterns.curvy(), startTime: 0, playbackRate: 1.5, loop: LoopSettings(),
                runtimeControls: [
                    .curve(
                        .hapticIntensityControl,
                        controlPoints: [
                            ControlPoint(time: 0, value: 1), ControlPoint(time: 5, value: 0.2),
                        ], at: 1)
                ])
        ]
        let loopSeconds = RendererBenchPatterns.seconds {
            _ = ReferenceRenderer.render(looping, channels: 1, sampleRate: 8_000, from: 0, to: 10)
        }
        return [
            Metric(
                name: "renderer.dense_samples_per_s", value: (Double(denseSamples) / denseSeconds).rounded(),
                unit: "samples/s", goal: .atLeast(500_000)),
            Metric(
                name: "renderer.loop_curves_samples_per_s", value: (Double(denseSamples) / loopSeconds).rounded(),
                unit: "samples/s", goal: .atLeast(500_000)),
        ]
    }
}

enum RendererBenchPatterns {
    /// 10 s of a busy pattern: 50 transients per second over 4 overlapping enveloped continuous events.
    static func dense() -> HapticPattern {
        var events: [HapticEvent] = (0..<500).map { index in
            .transient(at: Double(index) * 0.02, intensity: Float(index % 7) / 7, sharpness: Float(index % 5) / 5)
        }
        for index in 0..<4 {
            var event = HapticEvent.continuous(at: Double(index) * 2, duration: 3, intensity: 0.5, sharpness: 0.3)
            event.parameters += [EventParameter(.attackTime, 0.4), EventParameter(.releaseTime, 0.6)]
            events.append(event)
        }
        return HapticPattern(events: events).normalized()
    }

    /// A 2 s pattern with 16-point intensity and sharpness curves.
    static func curvy() -> HapticPattern {
        let points = (0..<16).map { ControlPoint(time: Double($0) * 0.12, value: Float($0 % 4) / 4) }
        return HapticPattern(
            events: [.continuous(at: 0, duration: 2, intensity: 0.8), .transient(at: 1, intensity: 1)],
            parameterCurves: [
                ParameterCurve(.hapticIntensityControl, time: 0, controlPoints: points),
                ParameterCurve(.hapticSharpnessControl, time: 0.1, controlPoints: points),
            ])
    }

    static func seconds(_ work: () -> Void) -> Double {
        let clock = ContinuousClock()
        let elapsed = clock.measure(work)
        let (whole, atto) = elapsed.components
        return max(1e-9, Double(whole) + Double(atto) * 1e-18)
    }
}
