import Foundation
import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

@Suite("Board reset and unplug")
struct ResetAndUnplugTests {
    @Test("a board that reboots calls the reset handler; after a restart the same players play again")
    func reset() async throws {
        let clock = ManualClock()
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: BoardConfiguration(), transport: end)
        let engine = HapticEngine(manualClock: clock) { (host, Task { try? await server.run(on: clock) }) }
        let resets = Counter()
        await engine.setResetHandler { resets.increment() }
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: EngineTests.buzz)
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        let events = engine.events
        server.resetButton.press()
        try await withVirtualTime(clock) {
            for await event in events { if event == .reset { return } }
        }
        #expect(resets.value == 1)
        #expect(await !engine.isRunning, "Core Haptics stops the engine on a reset; the handler restarts it")
        try await withVirtualTime(clock) {
            try await engine.start()
            try await player.start(atTime: 0)
        }
        #expect(await engine.statistics.uploads == 2, "the rebooted board had lost the timeline; it was sent again")
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a board unplugged while playing stops the engine with the device named; later calls say why")
    func unplug() async throws {
        let clock = ManualClock()
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: BoardConfiguration(), transport: end)
        let engine = HapticEngine(manualClock: clock) { (host, Task { try? await server.run(on: clock) }) }
        let reasons = Recorder<StoppedReason>()
        await engine.setStoppedHandler { reasons.append($0) }
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: EngineTests.buzz)
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await end.close()  // the cable is pulled
        await advance(clock, by: .milliseconds(20))
        let stopped = try #require(reasons.values.first)
        guard case .deviceLost(let error) = stopped else {
            Issue.record("stopped for \(stopped), not deviceLost")
            return
        }
        #expect("\(error)".contains("host"), "names the device: \(error)")
        #expect(error.code == -4811)
        await #expect(throws: HapticEngineError.self) { try await player.start(atTime: 0) }
    }
}

@Suite("A board that goes silent")
struct SilentBoardTests {
    @Test("stop returns within a second when the board no longer answers")
    func stopDoesNotHang() async throws {
        let clock = ManualClock()
        let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
        let server = try SimulatorServer(configuration: BoardConfiguration(), transport: end)
        let serving = Locked<Task<Void, Never>?>(nil)
        let engine = HapticEngine(manualClock: clock) {
            let task = Task<Void, Never> { try? await server.run(on: clock) }
            serving.set(task)
            return (host, task)
        }
        try await withVirtualTime(clock) { try await engine.start() }
        serving.value?.cancel()  // the firmware hangs; the line stays open
        let before = clock.now
        try await withVirtualTime(clock, limit: .seconds(3)) { await engine.stop() }
        #expect(before.duration(to: clock.now) <= .milliseconds(1100))
        #expect(await !engine.isRunning)
    }
}

final class Locked<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func set(_ value: T) { lock.withLock { stored = value } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

final class Recorder<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    var values: [T] { lock.withLock { items } }
    func append(_ item: T) { lock.withLock { items.append(item) } }
}
