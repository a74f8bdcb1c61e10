/// Running sums for one channel at one instant (Protocol/SEMANTICS.md §2).
struct Mix {
    private var intensitySum: Double = 0
    private var sharpnessWeightedSum: Double = 0
    private var audioSum: Double = 0

    mutating func addHaptic(intensity: Float, sharpness: Float) {
        guard intensity > 0 else { return }
        intensitySum += Double(intensity)
        sharpnessWeightedSum += Double(intensity) * Double(sharpness)
    }

    mutating func addAudio(volume: Float) {
        guard volume > 0 else { return }
        audioSum += Double(volume)
    }

    /// Sum of event intensities, clipped to 1.
    var intensity: Float { Float(min(1, intensitySum)) }

    /// Intensity-weighted mean of the events' sharpness; 0 when nothing has intensity.
    var sharpness: Float {
        guard intensitySum > 0 else { return 0 }
        return ParameterRange.unit.clamp(Float(sharpnessWeightedSum / intensitySum))
    }

    var audioVolume: Float { Float(min(1, audioSum)) }
}
