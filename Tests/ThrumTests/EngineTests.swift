import Foundation
import Testing
import Thrum
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

/// The engine against the embedded simulator (the firmware core), on a manual clock.
@Suite("HapticEngine on the embedded simulator")
struct EngineTests {
    static let tap = HapticPattern(events: [.transient(at: 0, intensity: 1, sharpness: 0.5)])
    static let buzz = HapticPattern(events: [.continuous(at: 0, duration: 0.2, intensity: 0.8, sharpness: 0.3)])

    @Test("start shakes hands and reports the board's capabilities")
    func startReportsCapabilities() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let capabilities = try #require(await engine.capabilities)
        #expect(capabilities.boardName == "thrum simulator")
        #expect(capabilities.players >= 1)
        #expect(await engine.isRunning)
        try await withVirtualTime(clock) { await engine.stop() }
        #expect(await !engine.isRunning)
    }

    @Test("a player plays its pattern to the end and the engine reports it finished")
    func playerFinishes() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(with: Self.buzz)
        let events = engine.events
        let finished = Task { await Self.firstFinished(events) }
        let startedAt = try await withVirtualTime(clock) { () -> Double in
            try await player.start(atTime: HapticEngine.timeImmediate)
            return await engine.currentTime
        }
        let finishedAt = try await withVirtualTime(clock) { () -> Double in
            let id = await finished.value
            #expect(id == player.id)
            return await engine.currentTime
        }
        // 200 ms of pattern, plus the link's latency for the notification.
        #expect(finishedAt - startedAt >= 0.19)
        #expect(finishedAt - startedAt < 0.35)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("playing a pattern again sends only a start: the timeline is cached on the board")
    func cachedTimeline() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let first = try await engine.makePlayer(with: Self.tap)
        let second = try await engine.makePlayer(with: Self.tap)
        try await withVirtualTime(clock) {
            try await first.start(atTime: 0)
            try await second.start(atTime: 0)
            try await first.start(atTime: 0)
        }
        let statistics = await engine.statistics
        #expect(statistics.uploads == 1)
        #expect(statistics.cacheHits == 2)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("when the board's memory is full, the least recently used timeline is freed")
    func evictsLeastRecentlyUsed() async throws {
        let clock = ManualClock()
        var board = BoardConfiguration()
        let patterns = (0..<4).map { index in
            HapticPattern(
                events: (0..<40).map { .transient(at: Double($0) * 0.05 + Double(index) * 0.001, intensity: 0.5) })
        }
        let size = try await HapticEngine(manualClock: clock).makePlayer(with: patterns[0]).timelineSize
        board.timelineMemory = size * 2 + size / 2  // room for two
        let engine = HapticEngine(manualClock: clock, simulator: board)
        try await withVirtualTime(clock) { try await engine.start() }
        for pattern in patterns {
            let player = try await engine.makePlayer(with: pattern)
            try await withVirtualTime(clock) {
                try await player.start(atTime: 0)
                try await player.cancel()
            }
        }
        let statistics = await engine.statistics
        #expect(statistics.uploads == 4)
        #expect(statistics.evictions == 2)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a pattern that fits the board's memory but not beside one playing is refused with both sizes")
    func outOfMemory() async throws {
        let clock = ManualClock()
        var board = BoardConfiguration()
        board.timelineMemory = 256
        func taps(offset: Double) -> HapticPattern {
            HapticPattern(events: (0..<40).map { .transient(at: offset + Double($0) * 0.1, intensity: Float($0) / 40) })
        }
        let engine = HapticEngine(manualClock: clock, simulator: board)
        try await withVirtualTime(clock) { try await engine.start() }
        let playing = try await engine.makePlayer(with: taps(offset: 0))
        let second = try await engine.makePlayer(with: taps(offset: 0.05))
        try #require((129...256).contains(playing.timelineSize) && (129...256).contains(second.timelineSize))
        try await withVirtualTime(clock) { try await playing.start(atTime: 0) }
        await #expect {
            try await withVirtualTime(clock) { try await second.start(atTime: 0) }
        } throws: { error in
            guard case HapticEngineError.outOfTimelineMemory(let needed, let available) = error else { return false }
            return needed == second.timelineSize && available == 256 - playing.timelineSize
                && "\(error)".contains("\(needed) bytes") && (error as? HapticEngineError)?.code == -4899
        }
        try await withVirtualTime(clock) { await engine.stop() }
    }

    /// PROTOCOL.md §1: at_time 0 means "now" and is never late (the board once reported it late).
    @Test("an immediate start and stop are never reported late")
    func immediateIsNotLate() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let events = engine.events
        let player = try await engine.makePlayer(with: Self.buzz)
        let watcher = Task { await StreamingTests.lateAndFinished(events) }
        try await withVirtualTime(clock) {
            try await player.start(atTime: HapticEngine.timeImmediate)
            try await player.stop(atTime: HapticEngine.timeImmediate)
        }
        let (late, finished) = try await withVirtualTime(clock) { await watcher.value }
        #expect(late.isEmpty, "reported late by \(late) s")
        #expect(finished == [player.id])
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("players refuse to start before the engine has started")
    func notRunning() async throws {
        let engine = HapticEngine(manualClock: ManualClock())
        let player = try await engine.makePlayer(with: Self.tap)
        await #expect(throws: HapticEngineError.engineNotRunning("call start() first")) {
            try await player.start(atTime: 0)
        }
    }

    @Test("dynamic parameters and curves reach a playing player; brightness is skipped and said so")
    func dynamicParameters() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(
            with: HapticPattern(events: [.continuous(at: 0, duration: 2, intensity: 1)]))
        let events = engine.events
        try await withVirtualTime(clock) {
            try await player.start(atTime: 0)
            try await player.sendParameters([DynamicParameter(.hapticIntensityControl, value: 0.5, time: 0)], atTime: 0)
            try await player.scheduleParameterCurve(
                ParameterCurve(
                    .hapticSharpnessControl, time: 0,
                    controlPoints: [
                        ControlPoint(time: 0, value: 0), ControlPoint(time: 0.5, value: 0.4),
                    ]), atTime: 0)
            try await player.sendParameters([DynamicParameter(.audioBrightnessControl, value: 0.5, time: 0)], atTime: 0)
        }
        let logs = await Self.collect(events, count: 1) { if case .log(_, let text) = $0 { text } else { nil } }
        #expect(logs.contains { $0.contains("AudioBrightnessControl") })
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("device addresses: sim, paths and usb: parse; anything else is refused with the forms")
    func deviceAddresses() throws {
        #expect(try DeviceAddress(parsing: "sim") == .simulator)
        #expect(try DeviceAddress(parsing: "/dev/ttyACM0") == .path("/dev/ttyACM0"))
        #expect(try DeviceAddress(parsing: "usb:2e8a:000a").description == "usb:2e8a:000a")
        #expect { try DeviceAddress(parsing: "COM3") } throws: { "\($0)".contains("usb:VID:PID") }
        #expect { try DeviceAddress(parsing: "usb:zz:1") } throws: { "\($0)".contains("vendor id") }
    }

    @Test("opening a device that is not there names it and the cause")
    func missingDevice() async throws {
        let engine = HapticEngine(device: .path("/dev/thrum-no-such-board"), manualClock: ManualClock())
        await #expect {
            try await engine.start()
        } throws: { error in
            "\(error)".contains("/dev/thrum-no-such-board") && (error as? HapticEngineError)?.code == -4810
        }
    }

    @Test("an error keeps the error that caused it as a value, and says it in the same words")
    func typedCause() async throws {
        let engine = HapticEngine(device: .path("/dev/thrum-no-such-board"), manualClock: ManualClock())
        do {
            try await engine.start()
            Issue.record("opened a device that is not there")
        } catch HapticEngineError.openFailed(let device, let cause) {
            let transport = try #require(cause.error as? TransportError)
            #expect(transport.reason == .notFound)
            #expect(
                "\(HapticEngineError.openFailed(device: device, cause: cause))" == "cannot open \(device): \(transport)"
            )
            #expect(cause == HapticEngineError.Cause(transport))
            #expect(cause != HapticEngineError.Cause(TransportError(.busy, device: device)))
        }
    }

    static func firstFinished(_ events: AsyncStream<HapticEngineEvent>) async -> Int? {
        for await event in events {
            if case .playerFinished(let id) = event { return id }
        }
        return nil
    }

    /// Up to `count` values `pick` finds among the events already delivered.
    static func collect<T>(
        _ events: AsyncStream<HapticEngineEvent>, count: Int, _ pick: (HapticEngineEvent) -> T?
    ) async -> [T] {
        var found: [T] = []
        var iterator = events.makeAsyncIterator()
        while found.count < count, let event = await iterator.next() {
            if let value = pick(event) { found.append(value) }
            if case .stopped = event { break }
        }
        return found
    }
}

@Suite("Auto shutdown")
struct AutoShutdownTests {
    @Test("an idle engine puts the drivers in standby and stops with idleTimeout; start wakes it")
    func idleTimeout() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        await engine.setAutoShutdown(enabled: true, after: .milliseconds(500))
        let events = engine.events
        let player = try await engine.makePlayer(with: EngineTests.tap)
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await advance(clock, by: .milliseconds(300))
        #expect(await engine.isRunning, "not idle long enough yet")
        let stopped = try await withVirtualTime(clock) { () -> StoppedReason? in
            for await event in events { if case .stopped(let reason) = event { return reason } }
            return nil
        }
        #expect(stopped == .idleTimeout)
        #expect(await !engine.isRunning)
        await #expect(throws: HapticEngineError.self) { try await player.start(atTime: 0) }
        try await withVirtualTime(clock) {
            try await engine.start()
            try await player.start(atTime: 0)
        }
        #expect(await engine.statistics.uploads == 1, "the board kept the timeline through standby")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}

@Suite("Audio on a haptics-only board")
struct AudioSkipTests {
    @Test("audio events are skipped and the skip is reported, naming the board")
    func skipped() async throws {
        let clock = ManualClock()
        var board = BoardConfiguration()
        board.audioOutput = .none
        let engine = HapticEngine(manualClock: clock, simulator: board)
        try await withVirtualTime(clock) { try await engine.start() }
        let events = engine.events
        let player = try await engine.makePlayer(
            with: HapticPattern(events: [
                .transient(at: 0, intensity: 1),
                HapticEvent(.audioContinuous, time: 0, duration: 0.1),
            ]))
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        let logs = await EngineTests.collect(events, count: 1) { if case .log(_, let text) = $0 { text } else { nil } }
        #expect(logs.first == "player \(player.id): 1 audio event skipped: thrum simulator has no audio output")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}
