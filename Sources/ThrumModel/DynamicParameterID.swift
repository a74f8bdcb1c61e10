/// The twelve dynamic parameters (`CHHapticDynamicParameter.ID`), which modulate event parameters.
public enum DynamicParameterID: String, Sendable, Hashable, CaseIterable, Codable {
    case hapticIntensityControl = "HapticIntensityControl"
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioPitchControl = "AudioPitchControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// How a control combines with the event parameter it modulates.
    public enum Combination: Sendable, Hashable {
        /// value × control (neutral 1).
        case multiply
        /// value + control (neutral 0).
        case add
    }

    public var ahapName: String { rawValue }

    public var combination: Combination {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: return .multiply
        default: return .add
        }
    }

    public var range: ParameterRange { combination == .multiply ? .unit : .signedUnit }

    /// The value that has no effect: 1 for multiplying controls, 0 for adding ones.
    public var neutralValue: Float { combination == .multiply ? 1 : 0 }

    /// The event parameter this control modulates.
    public var target: EventParameterID {
        switch self {
        case .hapticIntensityControl: return .hapticIntensity
        case .hapticSharpnessControl: return .hapticSharpness
        case .hapticAttackTimeControl, .audioAttackTimeControl: return .attackTime
        case .hapticDecayTimeControl, .audioDecayTimeControl: return .decayTime
        case .hapticReleaseTimeControl, .audioReleaseTimeControl: return .releaseTime
        case .audioVolumeControl: return .audioVolume
        case .audioPanControl: return .audioPan
        case .audioBrightnessControl: return .audioBrightness
        case .audioPitchControl: return .audioPitch
        }
    }

    /// Whether the control acts on haptic events (true) or audio events (false).
    public var appliesToHaptics: Bool { rawValue.hasPrefix("Haptic") }
}

extension DynamicParameterID {
    /// The control at `index` (see `index`), or nil outside 0…11.
    public init?(index: Int) {
        guard Self.ordered.indices.contains(index) else { return nil }
        self = Self.ordered[index]
    }

    private static let ordered = allCases

    /// Position in declaration order, 0…11: a dense table index, and the timeline's control code.
    public var index: Int {
        switch self {
        case .hapticIntensityControl: return 0
        case .hapticSharpnessControl: return 1
        case .hapticAttackTimeControl: return 2
        case .hapticDecayTimeControl: return 3
        case .hapticReleaseTimeControl: return 4
        case .audioVolumeControl: return 5
        case .audioPanControl: return 6
        case .audioBrightnessControl: return 7
        case .audioPitchControl: return 8
        case .audioAttackTimeControl: return 9
        case .audioDecayTimeControl: return 10
        case .audioReleaseTimeControl: return 11
        }
    }
}
