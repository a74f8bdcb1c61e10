import Foundation
import Logging
import Testing
import Thrum
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// What Thrum logs through swift-log: recorded in memory, with each logger's label.
@Suite("Logging through swift-log")
struct LoggingTests {
    @Test("a board's LOG arrives under thrum.board at its level, with the device; the event still comes")
    func boardLog() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
        let talker = ChattyBoard(
            transport: board, clock: ManualEngineClock(clock),
            says: [
                .log(level: .warning, text: "actuator 0 is warm"), .log(level: .debug, text: "tick budget 40 %"),
            ])
        let engine = HapticEngine(manualClock: clock, logHandler: { recorder.handler(label: $0) }) {
            (host, Task { await talker.run() })
        }
        let events = engine.events
        try await withVirtualTime(clock) { try await engine.start() }
        let texts = await EngineTests.collect(events, count: 2) { if case .log(_, let text) = $0 { text } else { nil } }
        #expect(texts == ["actuator 0 is warm", "tick budget 40 %"])
        let said = recorder.entries(label: ThrumLogLabel.board)
        #expect(said.map(\.message) == ["actuator 0 is warm", "tick budget 40 %"])
        #expect(said.map(\.level) == [.warning, .debug])
        #expect(said.allSatisfy { $0.metadata["device"] == "sim" }, "\(said)")
        let link = recorder.entries(label: ThrumLogLabel.link)
        #expect(
            link.contains { $0.message == "connected" && $0.level == .info && $0.metadata["board"] == "chatty" },
            "\(link)")
        try await withVirtualTime(clock) { await engine.stop() }
        #expect(
            !recorder.entries.contains { $0.level >= .warning && $0.label == ThrumLogLabel.link },
            "a stop is no error: \(recorder.entries)")
    }

    @Test("an engine warning arrives under thrum.engine as a warning, the player in its metadata")
    func engineWarning() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        var configuration = BoardConfiguration()
        configuration.audioOutput = .none
        let engine = HapticEngine(
            manualClock: clock, simulator: configuration, logHandler: { recorder.handler(label: $0) })
        try await withVirtualTime(clock) { try await engine.start() }
        let player = try await engine.makePlayer(
            with: HapticPattern(events: [
                .transient(at: 0, intensity: 1), HapticEvent(.audioContinuous, time: 0, duration: 0.1),
            ]))
        try await withVirtualTime(clock) {
            try await player.start(atTime: 0)
            try await player.sendParameters([DynamicParameter(.audioBrightnessControl, value: 0.5, time: 0)], atTime: 0)
        }
        let warnings = recorder.entries(label: ThrumLogLabel.engine).filter { $0.level == .warning }
        #expect(
            warnings.map(\.message) == [
                "1 audio event skipped: thrum simulator has no audio output",
                "AudioBrightnessControl has no effect on this board; skipped",
            ])
        #expect(warnings.allSatisfy { $0.metadata == ["device": "sim", "player": "\(player.id)"] }, "\(warnings)")
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a logger the app passes takes every message, with its own label and metadata")
    func appLogger() async throws {
        let recorder = LogRecorder()
        var logger = Logger(label: "app.haptics") { recorder.handler(label: $0) }
        logger[metadataKey: "screen"] = "settings"
        var configuration = BoardConfiguration()
        configuration.audioOutput = .none
        let engine = HapticEngine(simulating: configuration, logger: logger)
        try await engine.start()
        try await engine.makePlayer(
            with: HapticPattern(events: [HapticEvent(.audioContinuous, time: 0, duration: 0.1)])
        ).start(atTime: 0)
        await engine.stop()
        let skipped = try #require(recorder.entries.first { $0.message.contains("audio event skipped") })
        #expect(skipped.label == "app.haptics")
        #expect(skipped.metadata["screen"] == "settings" && skipped.metadata["device"] == "sim")
        #expect(recorder.entries.allSatisfy { $0.label == "app.haptics" })
    }

    @Test("a pattern file's warnings, which nobody else sees when the engine reads the file, are logged")
    func patternWarnings() async throws {
        let clock = ManualClock()
        let recorder = LogRecorder()
        let engine = HapticEngine(manualClock: clock, logHandler: { recorder.handler(label: $0) })
        try await withVirtualTime(clock) { try await engine.start() }
        let ahap =
            #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.5}]}}]}"#
        try await withVirtualTime(clock) { try await engine.playPattern(from: Data(ahap.utf8)) }
        let warnings = recorder.entries(label: ThrumLogLabel.engine).filter { $0.level == .warning }
        #expect(warnings.count == 1, "\(recorder.entries)")
        #expect(warnings.first?.metadata["file"] == "data")
        #expect(
            warnings.first?.message.hasPrefix("Pattern[0].Event.EventParameters[0].ParameterValue") == true,
            "\(warnings)")
        try await withVirtualTime(clock) { await engine.stop() }
    }
}

/// A board that is only a link peer (ThrumWire's board role): it answers every request `ok` and,
/// once the engine starts it, says `says` (LOG messages). The firmware core sends no LOG of its own.
private struct ChattyBoard: Sendable {
    let transport: any ByteTransport
    let clock: ManualEngineClock
    let says: [WireMessage]

    func run() async {
        var configuration = LinkSimulation.boardConfiguration()
        if case .board(let epoch, var info) = configuration.role {
            info.board = "chatty"
            configuration.role = .board(bootEpoch: epoch, info: info)
        }
        var session = LinkSession(configuration: configuration)
        do {
            for try await chunk in transport.chunks {
                session.receive(chunk, at: clock.now)
                for case .received(let message, _) in session.takeEvents() {
                    guard let tag = message.tag else { continue }
                    try session.send(.result(tag: tag, status: .ok), at: clock.now)
                    if message.type == .engineStart { for line in says { try session.send(line, at: clock.now) } }
                }
                session.advance(to: clock.now)
                for frame in session.takeFrames() { try await transport.write(frame) }
            }
        } catch {}
    }
}
