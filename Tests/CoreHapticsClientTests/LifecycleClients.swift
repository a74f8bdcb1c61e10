// Core Haptics client code that leans on the engine's life cycle, as apps write it, with only the
// import changed. Like AppStyleClients.swift it imports no Thrum module but ThrumCoreHaptics.
import Foundation
import ThrumCoreHaptics

/// Issue 25's flow: an app that prepares its engine on a background queue (auto shutdown, a
/// stopped handler, a finished handler that stops the engine, a start, all before any player
/// exists), then plays a tap. With Core Haptics the tap plays.
final class BackgroundHaptics: @unchecked Sendable {
    let engine: CHHapticEngine
    private let queue = DispatchQueue(label: "app.haptics")
    private let lock = NSLock()
    private var reasons: [CHHapticEngine.StoppedReason] = []

    init(engine: CHHapticEngine) { self.engine = engine }

    /// Why the engine stopped by itself, as the stopped handler heard it.
    var stopReasons: [CHHapticEngine.StoppedReason] { lock.withLock { reasons } }

    /// Steps 1 and 2, on the app's queue; `done` hears how the start went.
    func prepare(done: @escaping @Sendable (Error?) -> Void) {
        queue.async { [self] in
            engine.isAutoShutdownEnabled = true
            engine.stoppedHandler = { [weak self] reason in self?.record(reason) }
            engine.notifyWhenPlayersFinished { _ in .stopEngine }
            do {
                try engine.start()
                done(nil)
            } catch {
                done(error)
            }
        }
    }

    /// Step 3: a player, started at once.
    func playTap() throws {
        let tap = CHHapticEvent(
            eventType: .hapticTransient, parameters: [CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)],
            relativeTime: 0)
        try engine.makePlayer(with: CHHapticPattern(events: [tap], parameters: [])).start(atTime: 0)
    }

    private func record(_ reason: CHHapticEngine.StoppedReason) {
        lock.withLock { reasons.append(reason) }
    }
}

// MARK: the classes are NSObjects, as apps treat them

/// How Objective-C-era code keeps and compares Core Haptics objects.
enum ObjectiveCStyle {
    /// Events, parameters and curves in an `NSArray`, found again with `isEqual`.
    static func arrayOfValues() throws -> (count: Int, found: Bool) {
        let point = CHHapticParameterCurve.ControlPoint(relativeTime: 0, value: 1)
        let curve = CHHapticParameterCurve(
            parameterID: .hapticIntensityControl, controlPoints: [point], relativeTime: 0)
        let parameter = CHHapticEventParameter(parameterID: .hapticIntensity, value: 1)
        let event = CHHapticEvent(eventType: .hapticTransient, parameters: [parameter], relativeTime: 0)
        let dynamic = CHHapticDynamicParameter(parameterID: .hapticSharpnessControl, value: 0, relativeTime: 0)
        let pattern = try CHHapticPattern(events: [event], parameterCurves: [curve])
        let array = NSArray(array: [point, curve, parameter, event, dynamic, pattern])
        return (array.count, array.contains(event) && event.isEqual(array[3]) && !event.isEqual(parameter))
    }

    /// APIs that take any `NSObject` (a registry, an `NSMapTable`, KVO-era code) take these.
    static func describe(_ object: NSObject) -> String { "\(type(of: object))" }

    /// An engine for the default device, made as Apple's `init() throws` is called.
    static func defaultEngine() throws -> CHHapticEngine {
        try CHHapticEngine()
    }

    /// Players, capabilities and attributes are `NSObjectProtocol` existentials.
    static func sameObject(_ first: any NSObjectProtocol, _ second: any NSObjectProtocol) -> Bool {
        first.isEqual(second)
    }
}

/// A game's own engine type: a subclass that keeps the engine's initialisers. It restates the
/// engine's `@unchecked Sendable`, which Swift asks of a subclass (with a warning): the one line
/// that Apple's engine, not `Sendable`, would not need.
final class GameHapticsEngine: CHHapticEngine, @unchecked Sendable {}
