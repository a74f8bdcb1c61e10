import Foundation
import Testing
import ThrumTesting

@testable import Thrum

/// Runs of the engine, from a start to the stop that ends it: what a finished handler's
/// `.stopEngine` may end, and starts that overlap.
@Suite("Engine runs")
struct EngineRunTests {
    @Test("starts made together share one handshake, and both return")
    func overlappingStarts() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) {
            async let first: Void = engine.start()
            async let second: Void = engine.start()
            _ = try await (first, second)
        }
        #expect(await engine.isRunning)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a stop asked for one run ends that run, and leaves a later run running")
    func stopEndsOnlyItsRun() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        let reasons = Recorder<StoppedReason>()
        await engine.setStoppedHandler { reasons.append($0) }
        try await withVirtualTime(clock) { try await engine.start() }
        let first = try #require(await engine.currentRun)
        try await withVirtualTime(clock) {
            await engine.stop()
            try await engine.start()
            await engine.stop(reporting: .notifyWhenFinished, endingOnly: first)
        }
        #expect(await engine.isRunning, "the run the stop was about had ended")
        #expect(reasons.values.isEmpty)
        let second = try #require(await engine.currentRun)
        #expect(second != first)
        try await withVirtualTime(clock) { await engine.stop(reporting: .notifyWhenFinished, endingOnly: second) }
        #expect(await !engine.isRunning)
        #expect(reasons.values == [.notifyWhenFinished])
    }

    @Test("a finished handler still waiting when the engine stops is called, with the run that ended")
    func waitingHandlerHearsStop() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        let heard = Recorder<Bool>()
        try await withVirtualTime(clock) { try await engine.start() }
        let run = await engine.currentRun
        let player = try await engine.makePlayer(with: HapticPattern(events: [.continuous(at: 0, duration: 5)]))
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await engine.notifyWhenPlayersFinishedOrNow { _, calledIn in
            heard.append(calledIn == run)
            return .stopEngine
        }
        #expect(heard.values.isEmpty, "a player plays")
        try await withVirtualTime(clock) {
            await engine.stop()
            try await engine.start()
        }
        await advance(clock, by: .milliseconds(50))
        #expect(heard.values == [true])
        try await withVirtualTime(clock) { await engine.stop() }
    }
}
