/// The ten event parameters (`CHHapticEvent.ParameterID`), with ranges and defaults.
public enum EventParameterID: String, Sendable, Hashable, CaseIterable, Codable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    public var ahapName: String { rawValue }

    public var range: ParameterRange {
        switch self {
        case .audioPitch, .audioPan: return .signedUnit
        default: return .unit
        }
    }

    /// The value an event of `eventType` has when the parameter is absent.
    ///
    /// Intensity and sharpness follow Apple's capability table (transient 0.75/0.5, continuous
    /// 0.6/0.422601). `Sustained` follows the SDK header (1.0), not the Unity plug-in's table:
    /// the header is what Core Haptics itself documents. See Protocol/SEMANTICS.md.
    public func defaultValue(for eventType: HapticEventType) -> Float {
        switch self {
        case .hapticIntensity: return eventType == .hapticTransient ? 0.75 : 0.6
        case .hapticSharpness: return eventType == .hapticTransient ? 0.5 : 0.422601
        case .attackTime, .decayTime, .releaseTime: return 0
        case .sustained: return 1
        case .audioVolume, .audioBrightness: return 1
        case .audioPitch, .audioPan: return 0
        }
    }
}
