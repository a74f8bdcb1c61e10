@testable import ThrumModel

/// Helpers shared by the renderer tests: build events in code, sample patterns at one instant.
enum RenderFixture {
    static func continuous(
        at time: Double, duration: Double, intensity: Float = 1, sharpness: Float = 0.5,
        attack: Float? = nil, decay: Float? = nil, release: Float? = nil, sustained: Float? = nil
    ) -> HapticEvent {
        var event = HapticEvent.continuous(at: time, duration: duration, intensity: intensity, sharpness: sharpness)
        if let attack { event.parameters.append(EventParameter(.attackTime, attack)) }
        if let decay { event.parameters.append(EventParameter(.decayTime, decay)) }
        if let release { event.parameters.append(EventParameter(.releaseTime, release)) }
        if let sustained { event.parameters.append(EventParameter(.sustained, sustained)) }
        return event
    }

    /// Intensity and sharpness of `pattern` played once from board time 0 on channel 0.
    static func sample(
        _ pattern: HapticPattern, at time: Double, runtime: [RuntimeControl] = []
    ) -> (intensity: Float, sharpness: Float) {
        ReferenceRenderer.sample(
            [Playback(pattern: pattern, startTime: 0, runtimeControls: runtime)], channel: 0, at: time)
    }

    static func intensity(_ pattern: HapticPattern, at time: Double, runtime: [RuntimeControl] = []) -> Float {
        sample(pattern, at: time, runtime: runtime).intensity
    }

    /// Table values (seconds) used in hand-computed expectations.
    static let seconds25 = 0.029023  // v = 0.25
    static let seconds50 = 0.111111  // v = 0.5
}

func isNear(_ a: Float, _ b: Float, within tolerance: Float = 1e-4) -> Bool { abs(a - b) <= tolerance }
