/// What `AudioToHaptics` listens for and how it writes what it hears (Protocol/AUDIO-TO-HAPTICS.md).
public struct AudioConversionOptions: Sendable, Hashable {
    /// The frequencies analysed, in hertz: the intensity follows the energy in this band, the
    /// sharpness maps the band's spectral centroid from 0 (lower edge) to 1 (upper edge) on a
    /// logarithmic scale, and onsets are looked for in it. At most 12 kHz; a file whose rate cannot
    /// hold the band is analysed up to its Nyquist frequency (the sharpness scale stays the band's).
    public var band: ClosedRange<Double>
    /// Multiplies every intensity (curve and transients); the result is clamped to 1.
    public var gain: Double
    /// Whether the loudest moment of the band becomes intensity 1 (times `gain`). Otherwise a
    /// full-scale sine in the band is intensity 1.
    public var normalizes: Bool
    /// The largest difference allowed between the intensity curve and the measured envelope
    /// (0…1, in intensity units); fewer breakpoints for larger values.
    public var intensityTolerance: Double
    /// The same for the sharpness curve.
    public var sharpnessTolerance: Double
    /// How readily onsets become transients, 0 (only the strongest) … 1 (the faintest).
    public var transientSensitivity: Double
    /// Band levels below this many dB relative to full scale count as silence: no events there.
    public var noiseFloor: Double
    /// Whether to add the sound itself as an `AudioCustom` event beside the haptics.
    public var keepsAudio: Bool
    /// How many min/max columns `WaveformSummary` holds at most.
    public var waveformColumns: Int

    public init(
        band: ClosedRange<Double> = 30...8000,
        gain: Double = 1,
        normalizes: Bool = true,
        intensityTolerance: Double = 0.04,
        sharpnessTolerance: Double = 0.05,
        transientSensitivity: Double = 0.5,
        noiseFloor: Double = -60,
        keepsAudio: Bool = false,
        waveformColumns: Int = 1200
    ) {
        self.band = band
        self.gain = gain
        self.normalizes = normalizes
        self.intensityTolerance = intensityTolerance
        self.sharpnessTolerance = sharpnessTolerance
        self.transientSensitivity = transientSensitivity
        self.noiseFloor = noiseFloor
        self.keepsAudio = keepsAudio
        self.waveformColumns = waveformColumns
    }

    /// The first option out of its range, described; nil when all are usable.
    func problem() -> String? {
        let nyquist = AnalysisFrames.highestBandEdge
        if !(band.lowerBound.isFinite && band.upperBound.isFinite) || band.lowerBound < 0
            || band.upperBound > nyquist || band.upperBound - band.lowerBound < 100
        {
            return
                "the band \(band.lowerBound)…\(band.upperBound) Hz must lie within 0…\(nyquist) Hz and span at least 100 Hz"
        }
        if !(gain.isFinite && gain > 0) { return "the gain \(gain) must be a positive number" }
        for (name, value) in [
            ("intensity tolerance", intensityTolerance), ("sharpness tolerance", sharpnessTolerance),
            ("transient sensitivity", transientSensitivity),
        ] where !(0...1).contains(value) {
            return "the \(name) \(value) must lie within 0…1"
        }
        if !(noiseFloor.isFinite && noiseFloor < 0 && noiseFloor >= -120) {
            return "the noise floor \(noiseFloor) dBFS must lie within -120…0"
        }
        if !(16...100_000).contains(waveformColumns) {
            return "the waveform's \(waveformColumns) columns must be 16…100000"
        }
        return nil
    }
}
