import Foundation
import Testing
import ThrumTesting
import ThrumTransport

@testable import Thrum

/// A rig player reports its end once, under the rig's own number, when its part on every board
/// has ended; a board that leaves is not waited for.
@Suite("A rig player's end")
struct RigPlayerFinishedTests {
    /// What the rig reported.
    enum Heard: Hashable {
        case board(String)
        case rig(Int)

        /// With the rig's time when it came.
        struct At: Sendable {
            var heard: Heard
            var time: Double
        }
    }

    @Test("a rig player finishes after its part on each board has, once")
    func finishesAfterEveryBoard() async throws {
        let clock = ManualClock()
        let boards = [0.0, 40].map { RigTests.Board(ppm: $0, clock: clock) }
        let rig = try RigTests.rig(boards, clock: clock)
        let heard = Recorder<Heard.At>()
        let events = rig.events
        let listener = Task {
            for await event in events {
                let now = await rig.currentTime
                switch event {
                case .engine(let board, .playerFinished): heard.append(.init(heard: .board(board), time: now))
                case .playerFinished(let rigPlayer): heard.append(.init(heard: .rig(rigPlayer), time: now))
                default: continue
                }
            }
        }
        let (id, start) = try await clock.drive(limit: .seconds(30)) {
            try await rig.start()
            let player = try await rig.makePlayer(with: RampProbe.pattern(duration: 0.3))
            let start = await rig.currentTime + 0.1
            try await player.start(atTime: start)
            // A second past the end: long enough for each board's end and anything after it.
            try await clock.sleep(until: .init(offset: .seconds(start + 1.3)))
            await rig.stop()
            return (player.id, start)
        }
        listener.cancel()
        let order = heard.values
        #expect(Set(order.prefix(2).map(\.heard)) == [.board("b0"), .board("b1")], "\(order)")
        #expect(order.dropFirst(2).map(\.heard) == [.rig(id)], "\(order)")
        let ended = try #require(order.last?.time)
        #expect(ended >= start + 0.3, "reported at \(ended), the pattern ends at \(start + 0.3)")
    }

    @Test("a rig player whose other board left finishes when the board still here has")
    func boardThatLeftIsNotAwaited() async throws {
        let clock = ManualClock()
        let boards = [0.0, 0].map { RigTests.Board(ppm: $0, clock: clock) }
        let rig = try RigTests.rig(boards, clock: clock)
        await rig.setRejoinInterval(.seconds(100))
        let events = rig.events
        let (finished, id) = try await clock.drive(limit: .seconds(30)) {
            try await rig.start()
            let player = try await rig.makePlayer(with: RampProbe.pattern(duration: 0.6))
            let start = await rig.currentTime + 0.1
            try await player.start(atTime: start)
            try await clock.sleep(until: .init(offset: .seconds(start + 0.2)))
            await boards[1].unplug()
            var finished: [Int] = []
            for await event in events {
                if case .playerFinished(let rigPlayer) = event {
                    finished.append(rigPlayer)
                    break
                }
            }
            await rig.stop()
            return (finished, player.id)
        }
        #expect(finished == [id])
    }
}
