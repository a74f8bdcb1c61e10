import Foundation
import Testing
import ThrumModel
import ThrumSimulator
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// A rig of simulated boards whose crystals disagree, on a manual clock: loop boundaries stay at
/// the same host instant on every board, a board that drops out leaves the others playing, and it
/// rejoins in step. Instants come from each board's TRACE_READ, put on the host's time line by
/// ground truth (the simulator's origin and crystal).
@Suite("Rigs")
struct RigTests {
    /// Where its linear attack extrapolates to zero is the instant a pass began (``RampProbe``).
    static let ramp = RampProbe.pattern()

    /// One simulated board of a test rig, which can be unplugged and plugged in again.
    final class Board: @unchecked Sendable {
        private(set) var configuration: BoardConfiguration
        let clock: ManualClock
        private let lock = NSLock()
        private var server: SimulatorServer?
        private var boardEnd: InMemoryTransport?
        private var plugged = true

        init(ppm: Double, clock: ManualClock) {
            var configuration = BoardConfiguration()
            configuration.channels = [.lra()]
            configuration.clockPPM = ppm
            configuration.keepAliveMilliseconds = 1000
            self.configuration = configuration
            self.clock = clock
        }

        /// Opens the line to a freshly booted board (the engine's `open`); fails while unplugged.
        func open() throws -> (any ByteTransport, Task<Void, Never>?) {
            try lock.withLock {
                guard plugged else { throw TransportError(.notFound, device: "test board", operation: "open") }
                let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
                let server = try SimulatorServer(configuration: configuration, transport: board)
                self.server = server
                boardEnd = board
                let clock = clock
                return (host, Task { try? await server.run(on: clock) })
            }
        }

        func unplug() async {
            let board = lock.withLock {
                plugged = false
                return boardEnd
            }
            await board?.close()
        }

        /// Plugs it in again, its clock now `ppm` off (an RC oscillator that warmed up meanwhile).
        func plug(ppm: Double? = nil) {
            lock.withLock {
                plugged = true
                if let ppm { configuration.clockPPM = ppm }
            }
        }

        /// The host instant (seconds on the manual clock) of board time `micros`.
        func hostSeconds(ofBoard micros: Double) -> Double? {
            guard let origin = lock.withLock({ server?.origin.withLock { $0 } }) as? ManualClock.Instant else {
                return nil
            }
            return origin.offset.secondsDouble + micros / (1 + lock.withLock { configuration.clockPPM } / 1e6) / 1e6
        }

        /// Board time (µs) at host seconds `seconds`.
        func boardMicros(atHost seconds: Double) -> Double? {
            guard let origin = lock.withLock({ server?.origin.withLock { $0 } }) as? ManualClock.Instant else {
                return nil
            }
            return (seconds - origin.offset.secondsDouble) * (1 + lock.withLock { configuration.clockPPM } / 1e6) * 1e6
        }
    }

    static func rig(_ boards: [Board], clock: ManualClock) throws -> HapticRig {
        let configuration = try RigConfiguration(
            boards: boards.indices.map { RigConfiguration.Board(name: "b\($0)", address: .device(.simulator)) })
        return HapticRig(configuration: configuration, clock: ManualEngineClock(clock)) { board, _ in
            let index = Int(board.name.dropFirst())!
            return HapticEngine(manualClock: clock) { try boards[index].open() }
        }
    }

    /// Where board `index`'s ramp near host time `time` began, in host seconds; nil when it
    /// rendered none there.
    static func rampStart(
        _ rig: HapticRig, _ board: Board, index: Int, near time: Double
    ) async throws -> Double? {
        guard let engine = await rig.engine(board: index), let from = board.boardMicros(atHost: time - 0.01) else {
            return nil
        }
        let trace = try await engine.readTrace(channel: 0, from: UInt32(max(0, from)), count: 50)
        return RampProbe.start(in: trace).flatMap { board.hostSeconds(ofBoard: $0) }
    }

    @Test("loop boundaries stay together on boards 100 ppm apart")
    func drift() async throws {
        try await loopsStayTogether(ppms: [-100.0, 40, 100], skew: 0.0005, trimTolerance: 15_000)
    }

    /// RC oscillators (PROTOCOL.md §7.4): boards 3 % slow and 3 % fast beside a crystal keep step as
    /// crystals do. (Before a board's first start took its drift-cancelling trim with it, they played
    /// a discipline period untrimmed and were still 0.7-0.8 ms apart 40 loops later.)
    @Test("loop boundaries stay together on boards 3 % fast and 3 % slow")
    func rcOscillators() async throws {
        // The trim within 40 ppm of exact (0.13 % of the 30,000 ppm it cancels): what the discipline
        // pays back of the estimate's error is larger at 3 %, and on a loaded machine (CI's full
        // suite) one run came 21.7 ppm off; the skew bound is the requirement, and it held.
        try await loopsStayTogether(ppms: [-30000.0, 0, 30000], skew: 0.0005, trimTolerance: 40_000)
    }

    /// Three boards play a looping ramp for 40 loops; the first loop starts within 0.5 ms on all of
    /// them, the last within `skew` (s), and each board's trim cancels its clock's rate.
    func loopsStayTogether(ppms: [Double], skew: Double, trimTolerance: Double) async throws {
        let clock = ManualClock()
        let boards = ppms.map { Board(ppm: $0, clock: clock) }
        let rig = try Self.rig(boards, clock: clock)
        let (first, last, trims) = try await clock.drive(limit: .seconds(60)) {
            try await rig.start()
            let player = try await rig.makePlayer(with: Self.ramp)
            try await player.setLoop(enabled: true, loopEnd: 0.5)
            let start = await rig.currentTime + 0.1
            try await player.start(atTime: start)
            try await clock.sleep(until: .init(offset: .seconds(start + 0.2)))
            var first: [Double] = []
            for (index, board) in boards.enumerated() {
                first.append(try #require(try await Self.rampStart(rig, board, index: index, near: start)))
            }
            let end = start + 40 * 0.5
            try await clock.sleep(until: .init(offset: .seconds(end + 0.2)))
            var last: [Double] = []
            for (index, board) in boards.enumerated() {
                last.append(try #require(try await Self.rampStart(rig, board, index: index, near: end)))
            }
            let trims = await rig.boards.map(\.trimPPB)
            await rig.stop()
            return (first, last, trims)
        }
        // The issue's target, 0.5 ms: on a manual clock that moves 1 ms a step, the clock exchanges'
        // timestamps fall on those steps, which bounds what the estimates can do.
        #expect(first.max()! - first.min()! < 0.0005, "start skew \(first)")
        #expect(last.max()! - last.min()! < skew, "skew after 40 loops \(last)")
        // Each board was trimmed against its clock: 10⁹ × (1 / (1 + ppm / 10⁶) − 1) ppb (about
        // −ppm × 1000), give or take what the discipline pays back of the clock estimate's error.
        for (trim, ppm) in zip(trims, ppms) {
            let exact = (1 / (1 + ppm / 1e6) - 1) * 1e9
            #expect(abs(Double(trim) - exact) < trimTolerance, "trim \(trim) ppb for \(ppm) ppm")
        }
    }

    @Test("a board that drops out leaves the others playing, and rejoins in step")
    func dropOutAndRejoin() async throws {
        try await rejoin(ppms: [-60.0, 60], back: 60)
    }

    /// An RC oscillator (PROTOCOL.md §7.4) 3 % fast that comes back 300 ppm faster (warmer): its
    /// drift before is no ±1 ppm prior for it, and it rejoins in step all the same.
    @Test("a board on an RC oscillator rejoins in step though its clock moved while it was away")
    func rcOscillatorRejoins() async throws {
        try await rejoin(ppms: [0, 30000], back: 30300)
    }

    /// Board 1 drops out after 2.2 s and comes back with its clock `back` ppm off; both render the
    /// loop within 0.5 ms of each other 6 s after the start.
    func rejoin(ppms: [Double], back: Double) async throws {
        let clock = ManualClock()
        let boards = ppms.map { Board(ppm: $0, clock: clock) }
        let rig = try Self.rig(boards, clock: clock)
        await rig.setRejoinInterval(.milliseconds(100))
        let events = rig.events
        let outcome = try await clock.drive(limit: .seconds(60)) {
            try await rig.start()
            let player = try await rig.makePlayer(with: Self.ramp)
            try await player.setLoop(enabled: true, loopEnd: 0.5)
            let start = await rig.currentTime + 0.1
            try await player.start(atTime: start)
            try await clock.sleep(until: .init(offset: .seconds(start + 2.2)))
            await boards[1].unplug()
            var left: String?
            for await event in events {
                if case .boardLeft(let board, _) = event {
                    left = board
                    break
                }
            }
            // Board 0 plays on while board 1 is away.
            let whileAway = start + 3 * 1.0
            try await clock.sleep(until: .init(offset: .seconds(whileAway + 0.2)))
            let survivor = try await Self.rampStart(rig, boards[0], index: 0, near: whileAway)
            let away = await rig.engine(board: 1) == nil
            boards[1].plug(ppm: back)
            var rejoined: (answered: Double, inStep: Double)?
            for await event in events {
                if case .boardRejoined(let board, _, let answered, let inStep) = event, board == "b1" {
                    rejoined = (answered, inStep)
                    break
                }
            }
            let check = start + 12 * 0.5
            try await clock.sleep(until: .init(offset: .seconds(check + 0.2)))
            let after = [
                try await Self.rampStart(rig, boards[0], index: 0, near: check),
                try await Self.rampStart(rig, boards[1], index: 1, near: check),
            ]
            await rig.stop()
            return (left, survivor, away, rejoined, after)
        }
        #expect(outcome.0 == "b1")
        #expect(outcome.1 != nil, "board 0 kept playing while board 1 was away")
        #expect(outcome.2, "board 1 was out of the rig")
        let rejoined = try #require(outcome.3)
        #expect(rejoined.inStep - rejoined.answered < 0.2)
        let after = outcome.4.compactMap { $0 }
        #expect(after.count == 2, "both boards render the loop after the rejoin")
        if after.count == 2 { #expect(abs(after[0] - after[1]) < 0.0005, "in step after the rejoin: \(after)") }
    }

    @Test("a rig file names boards and channels; its errors name the file and the entry")
    func rigFile() throws {
        let json = """
            { "boards": [
                { "name": "left", "device": "sim", "channels": ["shoulder", "elbow"], "simulator": { "channels": 2, "clockPPM": -40 } },
                { "name": "right", "serial": "3A0F", "channels": ["wrist", "hand"] } ],
              "localities": { "sleeve": ["shoulder", "elbow", "wrist", "hand"] } }
            """
        let rig = try RigConfiguration(json: Data(json.utf8), name: "rig.json")
        #expect(rig.boards.map(\.name) == ["left", "right"])
        #expect(rig.boards[0].simulator?.clockPPM == -40)
        #expect(rig.boards[1].address == .serialNumber("3A0F"))
        #expect(rig.localities["sleeve"]?.description == "shoulder,elbow,wrist,hand")
        let cases: [(String, String)] = [
            (#"{ "boards": [ { "name": "a" } ] }"#, "boards[0]: give \"device\" or \"serial\""),
            (
                #"{ "boards": [ { "name": "a", "device": "sim" }, { "name": "a", "device": "sim" } ] }"#,
                "two boards are named 'a'"
            ),
            (
                #"{ "boards": [ { "name": "a", "device": "sim", "channels": ["x"] }, { "name": "b", "device": "sim", "channels": ["x"] } ] }"#,
                "channel name 'x' is on boards 'a' and 'b'"
            ),
            (#"{ "boards": [ ] }"#, "at least one board"),
            (#"{ "boards": "no" }"#, "boards"),
        ]
        for (text, expected) in cases {
            do {
                _ = try RigConfiguration(json: Data(text.utf8), name: "rig.json")
                Issue.record("\(text) was accepted")
            } catch {
                #expect("\(error)".contains("rig.json"), "\(error)")
                #expect("\(error)".contains(expected), "\(error)")
            }
        }
    }

    @Test("a locality across boards: gaps where the other boards are, and the pan shared out")
    func channelMap() throws {
        let map = RigChannelMap(boards: [
            .init(name: "a", channelNames: ["shoulder", "elbow"]), .init(name: "b", channelNames: ["wrist", "hand"]),
        ])
        let (parts, count) = try map.parts(of: "shoulder,elbow,wrist,hand")
        #expect(count == 4)
        #expect(parts.map(\.locality.description) == ["0,1,_", "_,0,1"])
        // At 0.5 the pan is halfway between elbow (a) and wrist (b): each board at its gap's edge.
        let position = 0.5
        let a = ChannelPan.gains(position: parts[0].position(for: position, count: count), count: 3)
        let b = ChannelPan.gains(position: parts[1].position(for: position, count: count), count: 3)
        let rig = ChannelPan.gains(position: position, count: 4)
        #expect(abs(a[1] - rig[1]) < 1e-9 && abs(b[1] - rig[2]) < 1e-9 && a[0] == 0 && b[2] == 0)
        // A curve from 0 to 1 gets a point where it enters and leaves each board's span.
        let curve = parts[1].curve(
            for: [HapticPanPoint(time: 0, position: 0), HapticPanPoint(time: 3, position: 1)], count: 4)
        #expect(curve.map(\.time) == [0, 1, 3])
        #expect(curve.map(\.position) == [0, 0, 1])
        #expect(throws: HapticEngineError.self) { try map.parts(of: "0") }
        #expect(throws: HapticEngineError.self) { try map.parts(of: "knee") }
        #expect(try map.resolve("b.0").map(\.board) == [1])
    }
}
