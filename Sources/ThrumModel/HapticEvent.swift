/// One event parameter: an ID and its value.
public struct EventParameter: Sendable, Hashable {
    public var id: EventParameterID
    public var value: Float

    public init(_ id: EventParameterID, _ value: Float) {
        self.id = id
        self.value = value
    }
}

/// The audio-specific part of an `audioCustom` event.
public struct AudioWaveform: Sendable, Hashable {
    /// `EventWaveformPath` as written in the file, relative to the file's folder.
    public var path: String?
    /// A resource registered at run time (`registerAudioResource`), instead of a path.
    public var resourceID: Int?
    /// `EventWaveformUseVolumeEnvelope` (default true: ramp in and out to avoid clicks).
    public var useVolumeEnvelope: Bool
    /// `EventWaveformLoopEnabled` (default false).
    public var loopEnabled: Bool

    public init(path: String? = nil, resourceID: Int? = nil, useVolumeEnvelope: Bool = true, loopEnabled: Bool = false)
    {
        self.path = path
        self.resourceID = resourceID
        self.useVolumeEnvelope = useVolumeEnvelope
        self.loopEnabled = loopEnabled
    }
}

/// One event of a pattern. Times are seconds from the pattern's start.
public struct HapticEvent: Sendable, Hashable {
    public var type: HapticEventType
    /// Seconds from the pattern start (`Time`).
    public var time: Double
    /// `EventDuration` in seconds; 0 when absent. For continuous events the time before release
    /// begins; for transients only a logical length that pads the pattern.
    public var duration: Double
    /// Parameters as authored, in order; absent ones take `EventParameterID.defaultValue(for:)`.
    public var parameters: [EventParameter]
    /// Present for `audioCustom` events.
    public var waveform: AudioWaveform?

    public init(
        _ type: HapticEventType,
        time: Double,
        duration: Double = 0,
        parameters: [EventParameter] = [],
        waveform: AudioWaveform? = nil
    ) {
        self.type = type
        self.time = time
        self.duration = duration
        self.parameters = parameters
        self.waveform = waveform
    }

    /// The effective value of a parameter: the last authored one wins, else the default for this type.
    public func value(of id: EventParameterID) -> Float {
        if let authored = parameters.last(where: { $0.id == id }) { return id.range.clamp(authored.value) }
        return id.defaultValue(for: type)
    }

    /// Convenience for the common haptic pair.
    public var intensity: Float { value(of: .hapticIntensity) }
    public var sharpness: Float { value(of: .hapticSharpness) }
    /// `Sustained` read as a boolean (≥ 0.5 is on).
    public var isSustained: Bool { value(of: .sustained) >= 0.5 }
}

extension HapticEvent {
    public static func transient(at time: Double, intensity: Float? = nil, sharpness: Float? = nil) -> HapticEvent {
        HapticEvent(.hapticTransient, time: time, parameters: hapticPair(intensity, sharpness))
    }

    public static func continuous(
        at time: Double, duration: Double, intensity: Float? = nil, sharpness: Float? = nil
    ) -> HapticEvent {
        HapticEvent(.hapticContinuous, time: time, duration: duration, parameters: hapticPair(intensity, sharpness))
    }

    private static func hapticPair(_ intensity: Float?, _ sharpness: Float?) -> [EventParameter] {
        var parameters: [EventParameter] = []
        if let intensity { parameters.append(EventParameter(.hapticIntensity, intensity)) }
        if let sharpness { parameters.append(EventParameter(.hapticSharpness, sharpness)) }
        return parameters
    }
}
