import Testing
import ThrumWire

@testable import ThrumSimulator

/// The line's jitter (`LineModel.jitterMicroseconds`): each delivery comes 0...jitter late, bytes
/// never reorder, and a seed replays the same delays.
@Suite struct LineJitterTests {
    /// Every byte sent with its arrival time, read back one arrival instant at a time.
    static func arrivals(on model: LineModel, sends: [(at: UInt64, bytes: [UInt8])]) -> [(byte: UInt8, at: UInt64)] {
        var line = LineDirection(model: model, way: .boardToHost)
        for send in sends { line.send(send.bytes, at: send.at) }
        var out: [(UInt8, UInt64)] = []
        while let at = line.nextArrival { out += line.receive(upTo: at).map { ($0, at) } }
        return out
    }

    /// Chunks of 1...40 bytes every 0...3000 µs, each byte numbered by its place in the stream.
    static func sends(seed: UInt64) -> [(at: UInt64, bytes: [UInt8])] {
        var random = SplitMix64(seed: seed)
        var time: UInt64 = 0
        var count = 0
        return (0..<400).map { _ in
            time += UInt64.random(in: 0...3000, using: &random)
            let length = Int.random(in: 1...40, using: &random)
            defer { count += length }
            return (time, (count..<count + length).map { UInt8(truncatingIfNeeded: $0) })
        }
    }

    @Test(arguments: [
        LineModel(jitterMicroseconds: 500, jitterSeed: 1),
        LineModel(baudRate: 115_200, jitterMicroseconds: 2000, jitterSeed: 2),
        LineModel(latencyMicroseconds: 1000, frameMicroseconds: 1000, jitterMicroseconds: 800, jitterSeed: 3),
    ])
    func jitterNeverReordersAndStaysWithinItsBound(model: LineModel) {
        let sends = Self.sends(seed: 11)
        var steady = model
        steady.jitterMicroseconds = 0
        let jittered = Self.arrivals(on: model, sends: sends)
        let due = Self.arrivals(on: steady, sends: sends)
        #expect(jittered.map(\.byte) == sends.flatMap(\.bytes))
        #expect(jittered.count == due.count)
        for (index, arrival) in jittered.enumerated() {
            #expect(
                arrival.at >= due[index].at && arrival.at <= due[index].at + model.jitterMicroseconds, "byte \(index)")
            if index > 0 { #expect(arrival.at >= jittered[index - 1].at, "byte \(index) overtook the one before") }
        }
        // The delays are spread over the bound, not all zero or all the largest.
        let delays = Set(zip(jittered, due).map { $0.at - $1.at })
        #expect(delays.count > 10)
    }

    @Test func theSeedReplaysTheDelays() {
        let sends = Self.sends(seed: 5)
        let model = LineModel(frameMicroseconds: 1000, jitterMicroseconds: 700, jitterSeed: 42)
        var other = model
        other.jitterSeed = 43
        let first = Self.arrivals(on: model, sends: sends).map(\.at)
        #expect(Self.arrivals(on: model, sends: sends).map(\.at) == first)
        #expect(Self.arrivals(on: other, sends: sends).map(\.at) != first)
    }

    /// Bytes due at one instant (a USB frame's) arrive together, whatever the jitter.
    @Test func aFramesBytesArriveTogether() {
        let model = LineModel(frameMicroseconds: 1000, jitterMicroseconds: 900, jitterSeed: 9)
        let arrivals = Self.arrivals(on: model, sends: [(100, [1, 2, 3]), (400, [4, 5]), (1500, [6])])
        #expect(Set(arrivals.prefix(5).map(\.at)).count == 1)
        #expect(arrivals[5].at >= 2000 && arrivals[5].at <= 2900)
    }

    /// A board behind a jittery USB line still shakes hands (both directions jittered).
    @Test func aJitteryLineCarriesTheHandshake() throws {
        var configuration = BoardConfiguration()
        configuration.line = .usb
        configuration.line.jitterMicroseconds = 3000
        var host = SimulatedHost(board: try SimulatedBoard(configuration))
        let info = try host.connect()
        #expect(try BoardCapabilities(info: info).boardName == configuration.board)
    }

    @Test func jitterOverASecondIsRefused() {
        var configuration = BoardConfiguration()
        configuration.line.jitterMicroseconds = 1_000_001
        #expect(configuration.problems().contains { $0.hasPrefix("line: jitterMicroseconds 1000001") })
    }
}
