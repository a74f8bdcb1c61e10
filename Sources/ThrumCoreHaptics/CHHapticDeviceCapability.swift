import Foundation
import Thrum
import ThrumModel

// Like Apple's, the two protocols refine `NSObjectProtocol` and promise nothing about `Sendable`:
// an app's own conforming type need not be. Thrum's answers are immutable, and `Sendable`.

/// The range and default of one parameter (`CHHapticParameterAttributes`).
public protocol CHHapticParameterAttributes: NSObjectProtocol {
    var minValue: Float { get }
    var maxValue: Float { get }
    var defaultValue: Float { get }
}

/// What a device supports (`CHHapticDeviceCapability`).
public protocol CHHapticDeviceCapability: NSObjectProtocol {
    var supportsHaptics: Bool { get }
    var supportsAudio: Bool { get }
    func attributes(
        forEventParameter inParameter: CHHapticEvent.ParameterID, eventType type: CHHapticEvent.EventType
    ) throws -> any CHHapticParameterAttributes
    func attributes(
        forDynamicParameter inParameter: CHHapticDynamicParameter.ID
    ) throws -> any CHHapticParameterAttributes
}

final class ThrumParameterAttributes: NSObject, CHHapticParameterAttributes, Sendable {
    let minValue: Float
    let maxValue: Float
    let defaultValue: Float

    init(minValue: Float, maxValue: Float, defaultValue: Float) {
        self.minValue = minValue
        self.maxValue = maxValue
        self.defaultValue = defaultValue
    }
}

final class ThrumDeviceCapability: NSObject, CHHapticDeviceCapability, Sendable {
    let supportsHaptics: Bool
    let supportsAudio: Bool

    init(supportsHaptics: Bool, supportsAudio: Bool) {
        self.supportsHaptics = supportsHaptics
        self.supportsAudio = supportsAudio
    }

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
