/// The four kinds of event Core Haptics knows, with their AHAP spellings.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A brief impulse of fixed shape; completes on its own.
    case hapticTransient = "HapticTransient"
    /// A looped waveform of arbitrary length with an attack/decay/release envelope.
    case hapticContinuous = "HapticContinuous"
    /// A system-generated audio tone with the same envelope semantics as `hapticContinuous`.
    case audioContinuous = "AudioContinuous"
    /// An app-supplied waveform (registered resource or `EventWaveformPath`).
    case audioCustom = "AudioCustom"

    /// The AHAP spelling, e.g. `HapticTransient`.
    public var ahapName: String { rawValue }

    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
    public var isAudio: Bool { !isHaptic }

    /// Continuous kinds need a duration and carry an envelope.
    public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }
}
