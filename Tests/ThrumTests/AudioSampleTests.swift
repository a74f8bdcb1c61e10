import Foundation
import Testing
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// Registered audio resources on a board that plays samples: the engine sends each as a waveform
/// object at the board's rate, and the board's audio output plays it (WAVEFORM.md, SEMANTICS.md §6.4).
@Suite("Audio samples on the board")
struct AudioSampleTests {
    /// 16-bit samples at 16 kHz of a 440 Hz tone at 0.8 of full scale, `count` of them.
    static func tone(count: Int) -> [Int16] {
        (0..<count).map { Int16((0.8 * 32767 * sin(2 * Double.pi * 440 * Double($0) / 16000)).rounded()) }
    }

    static func wav16k(_ samples: [Int16]) -> [UInt8] {
        AudioResourceTests.wav(
            rate: 16000, data: samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] })
    }

    /// A pattern with one `AudioCustom` event naming `id` at full volume, for the file's length.
    static func pattern(playing id: Int, volume: Float = 1) -> HapticPattern {
        var event = HapticEvent(.audioCustom, time: 0, duration: 0, parameters: [EventParameter(.audioVolume, volume)])
        event.waveform = AudioWaveform(resourceID: id)
        return HapticPattern(events: [event])
    }

    /// A started engine on a tapped simulated board with `configure` applied, and `samples`
    /// (16 kHz) registered as a WAV file.
    static func engine(
        registering samples: [Int16], configure: (inout BoardConfiguration) -> Void = { _ in }
    ) async throws -> (engine: HapticEngine, tap: TraceTap, clock: ManualClock, id: Int) {
        var configuration = BoardConfiguration()
        configure(&configuration)
        let (engine, tap, clock) = try tappedBoard(configuration)
        try await withVirtualTime(clock) { try await engine.start() }
        let id = try await engine.registerAudioResource(
            try AudioResourceTests.file(wav16k(samples), named: "sound.wav"))
        return (engine, tap, clock, id)
    }

    @Test("a registered WAV file plays sample for sample on the simulated board's audio output")
    func samplesPlay() async throws {
        let source = Self.tone(count: 4000)  // 0.25 s at 16 kHz
        let (engine, tap, clock, id) = try await Self.engine(registering: source)
        let player = try await engine.makePlayer(with: Self.pattern(playing: id))
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await advance(clock, by: .milliseconds(400))
        #expect(await engine.statistics.uploads == 2, "the waveform object and the timeline")

        // What the board should play, worked out here from WAVEFORM.md §2: 16 kHz to 8 kHz keeps
        // every second source sample; each is stored as round(v × 128) and played as q / 128.
        let expected = stride(from: 0, to: source.count, by: 2).map { index -> Int16 in
            let q = max(-128, min(127, (Double(source[index]) / 32768 * 128).rounded()))
            return Int16(q * 256)
        }
        let firstTick = try #require(tap.ticks.first { $0.audio > 0 }, "the volume lane sounds")
        let played = tap.audio.signal(from: firstTick.time, count: expected.count, rate: 8000)
        // An immediate start falls between ticks: the first tick that sounds may be a few ticks'
        // worth of samples into the sound (the start's own delay); find how far, then compare all.
        let offset = (0..<40).first { shift in
            (0..<(expected.count - 40)).allSatisfy { played[$0] == expected[$0 + shift] }
        }
        #expect(
            offset != nil,
            "the output is the tone, sample for sample: \(Array(played.prefix(12))) vs \(Array(expected.prefix(12)))")
        #expect(
            tap.audio.signal(from: firstTick.time + 260_000, count: 800, rate: 8000).allSatisfy { $0 == 0 },
            "silent after its length")

        // Played again: the board still holds both, so only a start goes over the line.
        try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        await advance(clock, by: .milliseconds(300))
        #expect(await engine.statistics.uploads == 2)
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("half the volume halves the samples")
    func volumeScales() async throws {
        // 0.1 s of a constant half scale
        let (engine, tap, clock, id) = try await Self.engine(registering: [Int16](repeating: 16384, count: 1600))
        try await withVirtualTime(clock) {
            try await engine.makePlayer(with: Self.pattern(playing: id, volume: 0.5)).start(atTime: 0)
        }
        await advance(clock, by: .milliseconds(200))
        let values = Set(tap.audio.flatMap(\.samples))
        // q = 64 (0.5 × 128), played as 64 × 256 × volume; volume 0.5 is 128/255 in the timeline.
        #expect(values == [Int16((64 * 256 * 16448) >> 15)], "\(values)")
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a board that plays no samples gets no waveform object; its volume lane still sounds")
    func boardWithoutSamples() async throws {
        let (engine, tap, clock, id) = try await Self.engine(registering: Self.tone(count: 1600)) {
            $0.audioOutput = .pwmBuzzer
            $0.audioRate = 0
        }
        try await withVirtualTime(clock) {
            try await engine.makePlayer(with: Self.pattern(playing: id)).start(atTime: 0)
        }
        await advance(clock, by: .milliseconds(200))
        #expect(await engine.statistics.uploads == 1, "the timeline only")
        #expect(tap.audio.isEmpty)
        #expect(tap.ticks.contains { $0.audio > 0 })
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a sound longer than the board's memory is refused, saying how long, how big and what the board has")
    func tooLong() async throws {
        let (engine, _, clock, id) = try await Self.engine(registering: Self.tone(count: 16000)) {
            $0.timelineMemory = 4096
        }
        let player = try await engine.makePlayer(with: Self.pattern(playing: id))
        await #expect(
            throws: HapticEngineError.audioResource(
                "audio resource \(id) lasts 1.00 s: at 8000 Hz it needs 8012 bytes, and thrum simulator has 4096 bytes of timeline memory"
            )
        ) {
            try await withVirtualTime(clock) { try await player.start(atTime: 0) }
        }
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a sound stays on the board while its pattern plays, and makes room once it has finished")
    func keptWhilePlaying() async throws {
        let (engine, tap, clock, id) = try await Self.engine(registering: Self.tone(count: 4000)) {
            $0.timelineMemory = 3000
        }
        // 2,012 bytes of sound and its timeline, then a pattern of about 1.5 KB that needs the room.
        let busy = HapticPattern(
            events: (0..<300).map { .transient(at: Double($0) * 0.01, intensity: Float($0 % 200) / 200) })
        try await withVirtualTime(clock) {
            try await engine.makePlayer(with: Self.pattern(playing: id)).start(atTime: 0)
        }
        await advance(clock, by: .milliseconds(50))
        let other = try await engine.makePlayer(with: busy)
        do {
            try await withVirtualTime(clock) { try await other.start(atTime: 0) }
            Issue.record("the sound that is playing was freed to make room")
        } catch HapticEngineError.outOfTimelineMemory {}
        await advance(clock, by: .milliseconds(400))
        let sounded = tap.audio.flatMap(\.samples).count { $0 != 0 }
        #expect(sounded > 1900, "the whole sound played (\(sounded) samples)")
        try await withVirtualTime(clock) { try await other.start(atTime: 0) }
        try await withVirtualTime(clock) { await engine.stop() }
    }
}
