import Testing
import ThrumFirmwareCore
import ThrumSimulator
import ThrumWire

/// Channel names (`BoardConfiguration.channelNames`) reach the core's `thr_channel_config.name`,
/// read both from the configuration the core was given and over the link (CHANNEL_READ).
@Suite struct ChannelNameTests {
    /// The names the core sees, one a channel (nil: none).
    static func coreNames(of board: SimulatedBoard) -> [String?] {
        board.withCore { core in
            guard let config = core.pointee.config else { return [] }
            return withUnsafeBytes(of: config.pointee.channels) { raw in
                raw.bindMemory(to: thr_channel_config.self).prefix(Int(config.pointee.channel_count)).map { channel in
                    channel.name.map { String(cString: $0) }
                }
            }
        }
    }

    @Test func namesReachTheCoreAndOutliveAReboot() throws {
        var configuration = BoardConfiguration()
        configuration.channels = [.lra(), .erm(), .lra()]
        configuration.channelNames = [0: "left", 2: "thümb"]
        let board = try SimulatedBoard(configuration)
        #expect(Self.coreNames(of: board) == ["left", nil, "thümb"])
        try board.reboot()
        board.advance(byMicroseconds: 10_000)
        #expect(Self.coreNames(of: board) == ["left", nil, "thümb"])
    }

    @Test func channelReadAnswersWithTheNames() throws {
        var configuration = BoardConfiguration()
        configuration.channels = [.lra(), .lra(), .erm()]
        configuration.channelNames = [0: "left", 1: "right"]
        var host = SimulatedHost(board: try SimulatedBoard(configuration))
        _ = try host.connect()
        var replies: [WireMessage.ChannelReply] = []
        for channel in 0...3 {
            try host.send(.channelRead(tag: UInt16(channel), channel: UInt8(channel)))
            guard case .channelReply(let reply) = try host.waitFor(.channelReply) else { continue }
            replies.append(reply)
        }
        #expect(replies.map(\.name) == ["left", "right", "", ""])
        #expect(replies.map(\.status) == [.ok, .ok, .ok, .badArgument])
    }

    @Test func aBoardWithoutNamesGivesTheCoreNone() throws {
        let board = try SimulatedBoard(BoardConfiguration())
        #expect(Self.coreNames(of: board) == [nil])
    }

    @Test func namesTheWireCannotCarryAreRefusedByChannel() {
        var configuration = BoardConfiguration()
        configuration.channels = [.lra(), .lra()]
        configuration.channelNames = [0: "abcdefghijklmnopq", 1: "äöüäöüäöü"]
        var problems = configuration.problems()
        #expect(problems.contains("channelNames[0] \"abcdefghijklmnopq\": 17 bytes, at most 16"))
        #expect(problems.contains("channelNames[1] \"äöüäöüäöü\": 18 bytes, at most 16"))
        configuration.channelNames = [0: "", 1: "a\u{0}b", 2: "wrist"]
        problems = configuration.problems()
        #expect(problems.contains { $0.hasPrefix("channelNames[0] \"\": empty") })
        #expect(problems.contains { $0.hasPrefix("channelNames[1]") && $0.hasSuffix("contains a NUL byte") })
        #expect(problems.contains("channelNames[2] \"wrist\": no such channel, the board has 2"))
        #expect(throws: SimulatorError.self) { try SimulatedBoard(configuration) }
        configuration.channelNames = [0: "sixteen-bytes-ok", 1: "äöüäöüäö"]
        #expect(configuration.problems().isEmpty)
    }
}
