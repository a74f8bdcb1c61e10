import Foundation
import Testing
import Thrum
import ThrumService
import ThrumSimulator
import ThrumTransport

/// A board unplugged under the service (Protocol/SERVICE.md §4): every client hears it leave, the
/// service tries it again until it answers, and players made before it left play once it is back.
@Suite(.timeLimit(.minutes(5))) struct BoardLossTests {
    @Test func aLostBoardIsReportedAndRejoins() async throws {
        let socket = PluggableBoard()
        let engine = HapticEngine(
            device: .simulator, clock: SystemEngineClock(), simulator: BoardConfiguration(), open: socket.plugIn)
        try await ServiceHarness(engine: engine, rejoinInterval: .milliseconds(100)).run { _, port in
            try await ServiceSocket.connect(port: port) { client in
                let loaded = try await client.result("pattern.load", ["text": .string(try example("slice.ahap"))])
                let player = try await client.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                #expect(socket.plugs == 1)
                await socket.unplug()
                let left = try await client.next { $0["event"] == "board.left" }
                #expect(left["board"] == "sim")
                #expect(left["cause"]?.stringValue?.isEmpty == false)
                _ = try await client.next { $0["event"] == "board.rejoined" }
                #expect(socket.plugs == 2)
                try await client.result("player.start", ["player": player])
                let finished = try await client.next { $0["event"] == "player.finished" }
                #expect(finished["player"] == player)
            }
        }
    }
}

/// A simulated board behind an in-memory line, in real time, that the test can unplug; each start
/// of the engine plugs in a new one.
final class PluggableBoard: Sendable {
    private let current = Locked<InMemoryTransport?>(nil)
    private let count = Locked(0)

    var plugs: Int { count.withLock { $0 } }

    var plugIn: @Sendable () throws -> (any ByteTransport, Task<Void, Never>?) {
        { [self] in
            let (host, end) = InMemoryTransport.makePair(names: ("host", "board"))
            let server = try SimulatorServer(configuration: BoardConfiguration(), transport: end)
            current.withLock { $0 = end }
            count.withLock { $0 += 1 }
            return (host, Task { try? await server.run(on: ContinuousClock()) })
        }
    }

    /// The cable is pulled: the board's end of the line closes.
    func unplug() async {
        await current.withLock { $0 }?.close()
    }
}
