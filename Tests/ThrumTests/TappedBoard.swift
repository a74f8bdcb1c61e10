import Thrum
import ThrumSimulator
import ThrumTesting
import ThrumTransport

/// An engine on a manual clock, talking over an in-memory line to a simulated board whose
/// rendered ticks `tap` keeps: what tests read to see what the board played.
func tappedBoard(
    _ configuration: BoardConfiguration = BoardConfiguration(), lineRate: Int? = nil
) throws -> (engine: HapticEngine, tap: TraceTap, clock: ManualClock) {
    let clock = ManualClock()
    let tap = TraceTap()
    let (host, board) = InMemoryTransport.makePair(names: ("host", "board"))
    let server = try SimulatorServer(configuration: configuration, transport: board, tap: tap)
    let engine = HapticEngine(manualClock: clock, lineRate: lineRate) {
        (host, Task { try? await server.run(on: clock) })
    }
    return (engine, tap, clock)
}
