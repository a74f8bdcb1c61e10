import Testing
import ThrumFirmwareCore
import ThrumModel
import ThrumSimulator
import ThrumTimeline
import ThrumWire

/// A host speaking ThrumWire's link to the simulated board in-process, on the board's clock.
@Suite struct LinkTests {
    static func board(line: LineModel = LineModel(), tickRate: Int = 1000) throws -> SimulatedBoard {
        var configuration = BoardConfiguration()
        configuration.line = line
        configuration.tickRate = tickRate
        configuration.channels = [.lra(), .erm()]
        configuration.bootEpoch = 77
        return try SimulatedBoard(configuration)
    }

    @Test(arguments: [
        LineModel(), LineModel(baudRate: 115_200), LineModel.usb, LineModel(baudRate: 9600, latencyMicroseconds: 3000),
    ])
    func handshakeGivesTheBoardsInfo(line: LineModel) throws {
        let board = try Self.board(line: line)
        var host = SimulatedHost(board: board)
        let info = try host.connect()
        let capabilities = try BoardCapabilities(info: info)
        #expect(capabilities.tickRate == 1000)
        #expect(capabilities.boardName == board.configuration.board)
        #expect(capabilities.firmware == board.configuration.firmware)
        #expect(capabilities.timelineMemory == board.configuration.timelineMemory)
        #expect(capabilities.flashSlots == board.configuration.slotCount)
        #expect(capabilities.channels.count == 2)
        #expect(capabilities.channels.first?.kind == .lra)
        #expect(capabilities.channels.last?.kind == .erm)
        // Each new session moves the boot epoch on by one (PROTOCOL.md: HELLO with a new nonce).
        #expect(host.session.epoch == 78)
        #expect(host.session.epoch == board.withCore { $0.pointee.link.epoch })
    }

    @Test func aSlowLineTakesItsByteTime() throws {
        // HELLO and INFO at 9600 baud: about 1 ms a byte each way, so the handshake takes tens of ms.
        let fast = try Self.board()
        var fastHost = SimulatedHost(board: fast)
        _ = try fastHost.connect()
        let slow = try Self.board(line: LineModel(baudRate: 9600))
        var slowHost = SimulatedHost(board: slow)
        _ = try slowHost.connect()
        #expect(fast.time < 5_000)
        #expect(slow.time > 50_000)
    }

    /// Upload through the link (ThrumWire's TimelineUpload), start by PLAYER_START at a board time:
    /// the board renders what the direct API renders, shifted to the start time.
    @Test func uploadAndPlayOverTheLinkRendersLikeTheDirectAPI() throws {
        let pattern = HapticPattern(events: [
            HapticEvent(
                .hapticContinuous, time: 0.05, duration: 0.2,
                parameters: [EventParameter(.hapticIntensity, 0.7), EventParameter(.attackTime, 0.3)]),
            HapticEvent(.hapticTransient, time: 0.3, parameters: [EventParameter(.hapticIntensity, 1)]),
        ])
        let bytes = try TimelineCompiler.compile(pattern)
        let board = try Self.board(line: .usb)
        var host = SimulatedHost(board: board)
        _ = try host.connect()
        let handle = try host.upload(bytes)
        let start = (board.time / 1000 + 20) * 1000
        try host.send(.playerStart(tag: 9, player: 0, handle: handle, atTime: UInt32(start), position: 0))
        let reply = try host.waitFor(.result)
        #expect(reply.status == .ok)
        host.run(until: { _ in false }, deadline: start + 500_000)

        let direct = try FirmwareRendering.render(timeline: bytes, seconds: 0.45)
        let linked = board.trace.filter { $0.channel == 0 && $0.time >= start && $0.time <= start + 450_000 }
        #expect(linked.count == direct.intensity.count)
        for sample in linked {
            let k = Int((sample.time - start) / 1000)
            #expect(Float(sample.intensity) == direct.intensity[k], "t=\(k) ms")
        }
        #expect(linked.contains { $0.intensity > 0.69 })
    }
}
