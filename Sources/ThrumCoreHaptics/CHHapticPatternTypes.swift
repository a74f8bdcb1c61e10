import Foundation
import Thrum
import ThrumModel

public let CHHapticTimeImmediate: TimeInterval = 0

/// A registered audio resource (`registerAudioResource`).
public typealias CHHapticAudioResourceID = Int

// The value classes are `NSObject`s, open and not `Sendable`, as Core Haptics' are: apps store
// them in `NSArray`s, compare them with `isEqual` (identity, as `NSObject`'s), and subclass them
// (to make them `Decodable` in their own AHAP readers, calling the designated initialisers from
// `required init(from:)`). They are mutable, so they stay on one thread; Thrum reads their values
// into its own model when a pattern is made.

/// An event parameter: `CHHapticEvent.ParameterID` and its value.
open class CHHapticEventParameter: NSObject {
    public let parameterID: CHHapticEvent.ParameterID
    public var value: Float

    public init(parameterID: CHHapticEvent.ParameterID, value: Float) {
        self.parameterID = parameterID
        self.value = value
        super.init()
    }
}

/// One event of a pattern (`CHHapticEvent`).
open class CHHapticEvent: NSObject {
    public struct EventType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let hapticTransient = EventType(rawValue: HapticEventType.hapticTransient.rawValue)
        public static let hapticContinuous = EventType(rawValue: HapticEventType.hapticContinuous.rawValue)
        public static let audioContinuous = EventType(rawValue: HapticEventType.audioContinuous.rawValue)
        public static let audioCustom = EventType(rawValue: HapticEventType.audioCustom.rawValue)
    }

    public struct ParameterID: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let hapticIntensity = ParameterID(rawValue: EventParameterID.hapticIntensity.rawValue)
        public static let hapticSharpness = ParameterID(rawValue: EventParameterID.hapticSharpness.rawValue)
        public static let attackTime = ParameterID(rawValue: EventParameterID.attackTime.rawValue)
        public static let decayTime = ParameterID(rawValue: EventParameterID.decayTime.rawValue)
        public static let releaseTime = ParameterID(rawValue: EventParameterID.releaseTime.rawValue)
        public static let sustained = ParameterID(rawValue: EventParameterID.sustained.rawValue)
        public static let audioVolume = ParameterID(rawValue: EventParameterID.audioVolume.rawValue)
        public static let audioPitch = ParameterID(rawValue: EventParameterID.audioPitch.rawValue)
        public static let audioPan = ParameterID(rawValue: EventParameterID.audioPan.rawValue)
        public static let audioBrightness = ParameterID(rawValue: EventParameterID.audioBrightness.rawValue)
    }

    public let type: EventType
    public var eventParameters: [CHHapticEventParameter]
    public var relativeTime: TimeInterval
    public var duration: TimeInterval
    let audioResourceID: CHHapticAudioResourceID?

    public init(
        eventType type: EventType, parameters: [CHHapticEventParameter], relativeTime: TimeInterval,
        duration: TimeInterval = 0
    ) {
        self.type = type
        self.eventParameters = parameters
        self.relativeTime = relativeTime
        self.duration = duration
        self.audioResourceID = nil
        super.init()
    }

    /// An `AudioCustom` event playing a registered resource.
    public init(
        audioResourceID: CHHapticAudioResourceID, parameters: [CHHapticEventParameter], relativeTime: TimeInterval,
        duration: TimeInterval = 0
    ) {
        self.type = .audioCustom
        self.eventParameters = parameters
        self.relativeTime = relativeTime
        self.duration = duration
        self.audioResourceID = audioResourceID
        super.init()
    }

    func model() throws -> HapticEvent {
        guard let kind = HapticEventType(rawValue: type.rawValue) else {
            throw CHHapticError(.invalidEventType, "unknown event type \(type.rawValue)")
        }
        guard relativeTime.isFinite, relativeTime >= 0 else {
            throw CHHapticError(.invalidEventTime, "event time \(relativeTime)")
        }
        guard duration.isFinite, duration >= 0 else {
            throw CHHapticError(.invalidEventDuration, "event duration \(duration)")
        }
        let parameters = try eventParameters.map { parameter -> EventParameter in
            guard let id = EventParameterID(rawValue: parameter.parameterID.rawValue) else {
                throw CHHapticError(.invalidParameterType, "unknown event parameter \(parameter.parameterID.rawValue)")
            }
            return EventParameter(id, id.range.clamp(parameter.value))
        }
        let waveform = audioResourceID.map { AudioWaveform(resourceID: $0) }
        return HapticEvent(kind, time: relativeTime, duration: duration, parameters: parameters, waveform: waveform)
    }
}

/// A dynamic parameter (`CHHapticDynamicParameter`): a control value from a time on.
open class CHHapticDynamicParameter: NSObject {
    public struct ID: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let hapticIntensityControl = ID(rawValue: DynamicParameterID.hapticIntensityControl.rawValue)
        public static let hapticSharpnessControl = ID(rawValue: DynamicParameterID.hapticSharpnessControl.rawValue)
        public static let hapticAttackTimeControl = ID(rawValue: DynamicParameterID.hapticAttackTimeControl.rawValue)
        public static let hapticDecayTimeControl = ID(rawValue: DynamicParameterID.hapticDecayTimeControl.rawValue)
        public static let hapticReleaseTimeControl = ID(rawValue: DynamicParameterID.hapticReleaseTimeControl.rawValue)
        public static let audioVolumeControl = ID(rawValue: DynamicParameterID.audioVolumeControl.rawValue)
        public static let audioPanControl = ID(rawValue: DynamicParameterID.audioPanControl.rawValue)
        public static let audioBrightnessControl = ID(rawValue: DynamicParameterID.audioBrightnessControl.rawValue)
        public static let audioPitchControl = ID(rawValue: DynamicParameterID.audioPitchControl.rawValue)
        public static let audioAttackTimeControl = ID(rawValue: DynamicParameterID.audioAttackTimeControl.rawValue)
        public static let audioDecayTimeControl = ID(rawValue: DynamicParameterID.audioDecayTimeControl.rawValue)
        public static let audioReleaseTimeControl = ID(rawValue: DynamicParameterID.audioReleaseTimeControl.rawValue)

        func model() throws -> DynamicParameterID {
            guard let id = DynamicParameterID(rawValue: rawValue) else {
                throw CHHapticError(.invalidParameterType, "unknown dynamic parameter \(rawValue)")
            }
            return id
        }
    }

    public let parameterID: ID
    public var value: Float
    public var relativeTime: TimeInterval

    public init(parameterID: ID, value: Float, relativeTime: TimeInterval) {
        self.parameterID = parameterID
        self.value = value
        self.relativeTime = relativeTime
        super.init()
    }

    func model() throws -> DynamicParameter {
        DynamicParameter(try parameterID.model(), value: value, time: relativeTime)
    }
}

/// A parameter curve (`CHHapticParameterCurve`): control points relative to the curve's time.
open class CHHapticParameterCurve: NSObject {
    open class ControlPoint: NSObject {
        public var relativeTime: TimeInterval
        public var value: Float

        public init(relativeTime: TimeInterval, value: Float) {
            self.relativeTime = relativeTime
            self.value = value
            super.init()
        }
    }

    public let parameterID: CHHapticDynamicParameter.ID
    public var relativeTime: TimeInterval
    public let controlPoints: [ControlPoint]

    public init(parameterID: CHHapticDynamicParameter.ID, controlPoints: [ControlPoint], relativeTime: TimeInterval) {
        self.parameterID = parameterID
        self.controlPoints = controlPoints
        self.relativeTime = relativeTime
        super.init()
    }

    func model() throws -> ParameterCurve {
        ParameterCurve(
            try parameterID.model(), time: relativeTime,
            controlPoints: controlPoints.map { ThrumModel.ControlPoint(time: $0.relativeTime, value: $0.value) })
    }
}

/// A pattern (`CHHapticPattern`): events plus authored controls.
open class CHHapticPattern: NSObject {
    let pattern: HapticPattern

    public init(events: [CHHapticEvent], parameters: [CHHapticDynamicParameter]) throws {
        pattern = HapticPattern(
            events: try events.map { try $0.model() }, parameters: try parameters.map { try $0.model() }
        ).normalized()
    }

    public init(events: [CHHapticEvent], parameterCurves: [CHHapticParameterCurve]) throws {
        pattern = HapticPattern(
            events: try events.map { try $0.model() }, parameterCurves: try parameterCurves.map { try $0.model() }
        ).normalized()
    }

    /// An AHAP (or `.haptic`) file.
    public init(contentsOf url: URL) throws {
        do { pattern = try PatternFile.load(contentsOf: url) } catch {
            throw CHHapticError(.invalidPatternDictionary, "\(url.path): \(error)")
        }
    }

    /// An AHAP dictionary: built with ``Key`` or string literals, or as `JSONSerialization`,
    /// `PropertyListSerialization` or an `NSDictionary` gives it.
    public init(dictionary: [Key: Any]) throws {
        let result = PatternFile.read(dictionary: dictionary)
        guard let pattern = result.pattern, !result.diagnostics.hasErrors else {
            throw CHHapticError(
                .invalidPatternDictionary, result.diagnostics.errors.map(\.description).joined(separator: "; "))
        }
        self.pattern = pattern
    }

    /// The pattern as an AHAP dictionary, which ``init(dictionary:)`` reads back to the same
    /// pattern. As in Core Haptics, a pattern that plays registered audio resources cannot be
    /// exported (`operationNotPermitted`): a resource ID means nothing outside this process.
    public func exportDictionary() throws -> [Key: Any] {
        if let event = pattern.events.first(where: { $0.waveform?.resourceID != nil && $0.waveform?.path == nil }) {
            throw CHHapticError(
                .operationNotPermitted,
                "the AudioCustom event at \(event.time) s plays registered audio resource \(event.waveform!.resourceID!)"
            )
        }
        let data = AHAPWriter.data(for: pattern, pretty: false)
        guard let dictionary = try JSONSerialization.jsonObject(with: data) as? [Key: Any] else {
            throw CHHapticError(.unknownError, "the AHAP writer did not produce a dictionary")
        }
        return dictionary
    }

    /// Seconds, as Core Haptics defines a pattern's duration.
    public var duration: TimeInterval { pattern.duration }
}

extension CHHapticPattern {
    /// The keys of an AHAP dictionary (`CHHapticPattern.Key`).
    ///
    /// On Apple's platforms `Key` is a struct that Objective-C bridging turns into and out of
    /// `NSString`. Linux has no such bridging for a struct of ours, so
    /// `JSONSerialization.jsonObject(with:) as? [CHHapticPattern.Key: Any]` could only succeed if
    /// `Key` were `String` itself. It is: the static members (`.pattern`, `.event`, …) extend
    /// `String`, and `Key(rawValue:)`, `rawValue` and `Key("Pattern")` work as on Apple's platforms.
    public typealias Key = String
}

extension CHHapticPattern.Key {
    public init(rawValue: String) { self = rawValue }
    public var rawValue: String { self }

    public static let version: CHHapticPattern.Key = "Version"
    public static let pattern: CHHapticPattern.Key = "Pattern"
    public static let event: CHHapticPattern.Key = "Event"
    public static let eventType: CHHapticPattern.Key = "EventType"
    public static let time: CHHapticPattern.Key = "Time"
    public static let eventDuration: CHHapticPattern.Key = "EventDuration"
    public static let eventWaveformPath: CHHapticPattern.Key = "EventWaveformPath"
    public static let eventParameters: CHHapticPattern.Key = "EventParameters"
    public static let eventWaveformUseVolumeEnvelope: CHHapticPattern.Key = "EventWaveformUseVolumeEnvelope"
    public static let eventWaveformLoopEnabled: CHHapticPattern.Key = "EventWaveformLoopEnabled"
    public static let parameter: CHHapticPattern.Key = "Parameter"
    public static let parameterID: CHHapticPattern.Key = "ParameterID"
    public static let parameterValue: CHHapticPattern.Key = "ParameterValue"
    public static let parameterCurve: CHHapticPattern.Key = "ParameterCurve"
    public static let parameterCurveControlPoints: CHHapticPattern.Key = "ParameterCurveControlPoints"
}
