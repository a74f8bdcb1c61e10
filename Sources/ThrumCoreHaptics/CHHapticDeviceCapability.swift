import Thrum
import ThrumModel

/// The range and default of one parameter (`CHHapticParameterAttributes`).
public protocol CHHapticParameterAttributes: Sendable {
    var minValue: Float { get }
    var maxValue: Float { get }
    var defaultValue: Float { get }
}

/// What a device supports (`CHHapticDeviceCapability`).
public protocol CHHapticDeviceCapability: Sendable {
    var supportsHaptics: Bool { get }
    var supportsAudio: Bool { get }
    func attributes(
        forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType
    ) throws -> any CHHapticParameterAttributes
    func attributes(
        forDynamicParameter inParameter: CHHapticDynamicParameter.ID
    ) throws -> any CHHapticParameterAttributes
}

struct ThrumParameterAttributes: CHHapticParameterAttributes {
    var minValue: Float
    var maxValue: Float
    var defaultValue: Float
}

struct ThrumDeviceCapability: CHHapticDeviceCapability {
    var supportsHaptics: Bool
    var supportsAudio: Bool

    func attributes(
        forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType
    ) throws -> any CHHapticParameterAttributes {
        guard let id = EventParameterID(rawValue: inParameter.rawValue) else {
            throw CHHapticError(.invalidParameterType, "unknown event parameter \(inParameter.rawValue)")
        }
        guard let kind = HapticEventType(rawValue: type.rawValue) else {
            throw CHHapticError(.invalidEventType, "unknown event type \(type.rawValue)")
        }
        return ThrumParameterAttributes(
            minValue: id.range.min, maxValue: id.range.max, defaultValue: id.defaultValue(for: kind))
    }

    func attributes(
        forDynamicParameter inParameter: CHHapticDynamicParameter.ID
    ) throws -> any CHHapticParameterAttributes {
        let id = try inParameter.model()
        return ThrumParameterAttributes(minValue: id.range.min, maxValue: id.range.max, defaultValue: id.neutralValue)
    }
}
