import Foundation

/// The options of `registerAudioResource(_:options:)` (`CHHapticAudioResourceKey`). They set what
/// the events that play the resource say for `EventWaveformUseVolumeEnvelope` and
/// `EventWaveformLoopEnabled`.
public struct CHHapticAudioResourceKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Ramp the sound in and out to avoid clicks (`Bool`, default true).
    public static let useVolumeEnvelope = CHHapticAudioResourceKey("UseVolumeEnvelope")
    /// Loop the whole file for the event's duration (`Bool`, default false).
    public static let loopEnabled = CHHapticAudioResourceKey("LoopEnabled")

    /// The settings an options dictionary asks for; keys may be the struct or its raw string.
    static func settings(from options: [AnyHashable: Any]) throws -> (useVolumeEnvelope: Bool, loopEnabled: Bool) {
        var settings = (useVolumeEnvelope: true, loopEnabled: false)
        for (key, value) in options {
            let name = (key.base as? CHHapticAudioResourceKey)?.rawValue ?? (key.base as? String) ?? "\(key.base)"
            guard let flag = value as? Bool else {
                throw CHHapticError(
                    .invalidEngineParameter, "audio resource option \(name) must be a Bool, not \(type(of: value))")
            }
            switch name {
            case useVolumeEnvelope.rawValue: settings.useVolumeEnvelope = flag
            case loopEnabled.rawValue: settings.loopEnabled = flag
            default:
                throw CHHapticError(
                    .invalidEngineParameter, "unknown audio resource option \(name) (use CHHapticAudioResourceKey)")
            }
        }
        return settings
    }
}
