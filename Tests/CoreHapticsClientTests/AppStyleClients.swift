// Core Haptics client code as apps, libraries and engine plug-ins write it, with only the import
// changed. Nothing here imports a Thrum module other than ThrumCoreHaptics. The same file compiles
// in Swift 5 language mode (CoreHapticsClientTests) and in Swift 6 mode (CoreHapticsClientTests6).
import Foundation
import ThrumCoreHaptics

// MARK: an app's own stand-in for AVFoundation, which Linux lacks

final class AVAudioSession {
    static func sharedInstance() -> AVAudioSession { AVAudioSession() }
}

// MARK: a game's haptics manager on the main actor

/// The shape of a UIKit app's feedback manager: main-actor state that the engine's handlers
/// touch, handlers that hop to the main queue, and a player restarted from its own completion.
@MainActor
final class FeedbackManager {
    static var stopReasons: [CHHapticEngine.StoppedReason] = []
    static var finishedCalls = 0

    let engine: CHHapticEngine
    var restarts = 0
    var lastError: Error?
    var engineNeedsStart = false
    private var looper: CHHapticAdvancedPatternPlayer?

    init(engine: CHHapticEngine) {
        self.engine = engine
        engine.stoppedHandler = { reason in
            DispatchQueue.main.async {
                FeedbackManager.stopReasons.append(reason)
            }
        }
        // As Apple's samples write it: main-actor state touched straight from the handler (a
        // `@Sendable` handler type would not compile here). No test makes the board reset.
        engine.resetHandler = { [weak self] in
            self?.engineNeedsStart = true
            FeedbackManager.stopReasons.removeAll()
        }
    }

    static func tap() throws -> CHHapticPattern {
        let event = CHHapticEvent(
            eventType: .hapticTransient,
            parameters: [
                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1.0),
                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.5),
            ],
            relativeTime: 0)
        return try CHHapticPattern(events: [event], parameters: [])
    }

    /// Plays a tap, then stops the engine once its players are done.
    func playTapThenStop() throws {
        try engine.start()
        let player = try engine.makePlayer(with: Self.tap())
        try player.start(atTime: CHHapticTimeImmediate)
        engine.notifyWhenPlayersFinished { error in
            HandlerThreads.shared.record(isMain: Thread.isMainThread)
            DispatchQueue.main.async {
                FeedbackManager.finishedCalls += 1
            }
            return .stopEngine
        }
    }

    /// A heartbeat: the player restarts itself from its completion handler, `times` times.
    func startHeartbeat(times: Int, done: @escaping () -> Void) throws {
        try engine.start()
        let player = try engine.makeAdvancedPlayer(with: Self.tap())
        player.completionHandler = { [weak self, weak player] error in
            guard let self, let player else { return }
            DispatchQueue.main.async {
                self.restarts += 1
                if let error { self.lastError = error }
            }
            // Re-entrant: this call blocks until the board has the start.
            let count = MainThreadCounter.shared.increment()
            if count < times {
                do { try player.start(atTime: CHHapticTimeImmediate) } catch {
                    DispatchQueue.main.async { self.lastError = error }
                }
            } else {
                done()
            }
        }
        looper = player
        try player.start(atTime: CHHapticTimeImmediate)
    }
}

/// Which threads handlers ran on (apps log this with a lock, not main-actor state).
final class HandlerThreads: @unchecked Sendable {
    static let shared = HandlerThreads()
    private let lock = NSLock()
    private var seen: [Bool] = []
    func record(isMain: Bool) {
        lock.lock()
        seen.append(isMain)
        lock.unlock()
    }
    var wereMain: [Bool] {
        lock.lock()
        defer { lock.unlock() }
        return seen
    }
}

/// A counter that handlers on any queue may bump (apps write this with a lock).
final class MainThreadCounter: @unchecked Sendable {
    static let shared = MainThreadCounter()
    private let lock = NSLock()
    private var value = 0
    func reset() {
        lock.lock()
        value = 0
        lock.unlock()
    }
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}

// MARK: an app's own AHAP reader: Decodable subclasses of the value classes

final class DecodedControlPoint: CHHapticParameterCurve.ControlPoint, Decodable {
    enum CodingKeys: String, CodingKey {
        case time = "Time"
        case value = "ParameterValue"
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        super.init(
            relativeTime: try container.decode(TimeInterval.self, forKey: .time),
            value: try container.decode(Float.self, forKey: .value))
    }
}

final class DecodedEventParameter: CHHapticEventParameter, Decodable {
    enum CodingKeys: String, CodingKey {
        case id = "ParameterID"
        case value = "ParameterValue"
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = CHHapticEvent.ParameterID(rawValue: try container.decode(String.self, forKey: .id))
        super.init(parameterID: id, value: try container.decode(Float.self, forKey: .value))
    }
}

final class DecodedEvent: CHHapticEvent, Decodable {
    enum CodingKeys: String, CodingKey {
        case type = "EventType"
        case time = "Time"
        case duration = "EventDuration"
        case parameters = "EventParameters"
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = CHHapticEvent.EventType(rawValue: try container.decode(String.self, forKey: .type))
        let parameters = try container.decodeIfPresent([DecodedEventParameter].self, forKey: .parameters) ?? []
        super.init(
            eventType: type, parameters: parameters,
            relativeTime: try container.decode(TimeInterval.self, forKey: .time),
            duration: try container.decodeIfPresent(TimeInterval.self, forKey: .duration) ?? 0)
    }
}

final class DecodedCurve: CHHapticParameterCurve, Decodable {
    enum CodingKeys: String, CodingKey {
        case id = "ParameterID"
        case time = "Time"
        case points = "ParameterCurveControlPoints"
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        super.init(
            parameterID: CHHapticDynamicParameter.ID(rawValue: try container.decode(String.self, forKey: .id)),
            controlPoints: try container.decode([DecodedControlPoint].self, forKey: .points),
            relativeTime: try container.decode(TimeInterval.self, forKey: .time))
    }
}

final class DecodedDynamicParameter: CHHapticDynamicParameter, Decodable {
    enum CodingKeys: String, CodingKey {
        case id = "ParameterID"
        case time = "Time"
        case value = "ParameterValue"
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        super.init(
            parameterID: CHHapticDynamicParameter.ID(rawValue: try container.decode(String.self, forKey: .id)),
            value: try container.decode(Float.self, forKey: .value),
            relativeTime: try container.decode(TimeInterval.self, forKey: .time))
    }
}

/// The app's AHAP file type.
struct AHAPDocument: Decodable {
    struct Element: Decodable {
        enum CodingKeys: String, CodingKey {
            case event = "Event"
            case curve = "ParameterCurve"
            case parameter = "Parameter"
        }

        var event: DecodedEvent?
        var curve: DecodedCurve?
        var parameter: DecodedDynamicParameter?
    }

    enum CodingKeys: String, CodingKey {
        case pattern = "Pattern"
    }

    var pattern: [Element]

    func hapticPattern() throws -> CHHapticPattern {
        try CHHapticPattern(events: pattern.compactMap(\.event), parameterCurves: pattern.compactMap(\.curve))
    }
}

// MARK: a game engine plug-in: players and errors across a C boundary

/// How native plug-ins hand players to managed code: an opaque pointer and an `Int` error code.
enum HapticsPlugin {
    static func retain(_ player: CHHapticAdvancedPatternPlayer) -> UnsafeMutableRawPointer {
        Unmanaged<CHHapticAdvancedPatternPlayer>.passRetained(player).toOpaque()
    }

    static func player(_ pointer: UnsafeMutableRawPointer) -> CHHapticAdvancedPatternPlayer {
        Unmanaged<CHHapticAdvancedPatternPlayer>.fromOpaque(pointer).takeUnretainedValue()
    }

    static func release(_ pointer: UnsafeMutableRawPointer) {
        Unmanaged<CHHapticAdvancedPatternPlayer>.fromOpaque(pointer).release()
    }

    /// The plug-in's exported "start" entry: 0, or the Core Haptics error code.
    static let start: @convention(c) (UnsafeMutableRawPointer?) -> Int = { pointer in
        guard let pointer else { return -1 }
        do {
            try Unmanaged<CHHapticPatternPlayer>.fromOpaque(pointer).takeUnretainedValue().start(
                atTime: CHHapticTimeImmediate)
            return 0
        } catch {
            return (error as NSError).code
        }
    }

    static func describe(_ error: Error) -> (domain: String, code: Int) {
        let bridged = error as NSError
        return (bridged.domain, bridged.code)
    }
}

/// A library's test double: its own player conforming to the protocol, stored beside real ones.
/// An `NSObject`, as Apple's protocol (which refines `NSObjectProtocol`) requires.
final class RecordingPlayer: NSObject, CHHapticPatternPlayer {
    var isMuted = false
    var calls: [String] = []

    func start(atTime time: TimeInterval) throws { calls.append("start \(time)") }
    func stop(atTime time: TimeInterval) throws { calls.append("stop \(time)") }
    func sendParameters(_ parameters: [CHHapticDynamicParameter], atTime time: TimeInterval) throws {
        calls.append("parameters \(parameters.count)")
    }
    func scheduleParameterCurve(_ parameterCurve: CHHapticParameterCurve, atTime time: TimeInterval) throws {
        calls.append("curve")
    }
    func cancel() throws { calls.append("cancel") }
}

// MARK: pattern dictionaries, as apps build them

enum PatternDictionaries {
    /// Apple's samples build dictionaries with `CHHapticPattern.Key` and typed values.
    static func keyed(intensity: Float) -> [CHHapticPattern.Key: Any] {
        [
            .version: 1.0,
            .pattern: [
                [
                    CHHapticPattern.Key.event: [
                        CHHapticPattern.Key.eventType: CHHapticEvent.EventType.hapticContinuous,
                        .time: 0.0,
                        .eventDuration: 1.0,
                        .eventParameters: [
                            [
                                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticIntensity,
                                .parameterValue: intensity,
                            ],
                            [
                                CHHapticPattern.Key.parameterID: CHHapticEvent.ParameterID.hapticSharpness,
                                .parameterValue: 0.0,
                            ],
                        ],
                    ] as [CHHapticPattern.Key: Any]
                ],
                [
                    CHHapticPattern.Key.parameterCurve: [
                        CHHapticPattern.Key.parameterID: CHHapticDynamicParameter.ID.hapticIntensityControl.rawValue,
                        .time: 0.0,
                        .parameterCurveControlPoints: [
                            [CHHapticPattern.Key.time: 0.0, .parameterValue: 1.0],
                            [CHHapticPattern.Key.time: 1.0, .parameterValue: 0.0],
                        ],
                    ] as [CHHapticPattern.Key: Any]
                ],
            ],
        ]
    }

    /// An AHAP file's text read the common way.
    static func fromJSON(_ text: String) throws -> [CHHapticPattern.Key: Any]? {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [CHHapticPattern.Key: Any]
    }
}
