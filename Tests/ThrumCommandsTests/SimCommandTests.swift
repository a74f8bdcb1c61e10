import ArgumentParser
import Testing
import ThrumQEMU
import ThrumSimulator

@testable import ThrumCommands

/// `thrum sim --pty`'s board options: channels, their names, the crystal and the line's jitter,
/// parsed into the board it would serve (without serving it).
@Suite("thrum sim board options")
struct SimCommandTests {
    static func board(_ arguments: [String]) throws -> BoardConfiguration {
        let command = try ThrumCommand.parseAsRoot(["sim", "--pty"] + arguments)
        return try #require(command as? SimCommand).boardConfiguration
    }

    @Test(arguments: [["--clock-ppm=-40"], ["--clock-ppm", "-40"]])
    func aNegativeClockPPMParsesInBothSpellings(arguments: [String]) throws {
        #expect(try Self.board(arguments).clockPPM == -40)
    }

    @Test func theDefaultsAreOneLRAAndAnExactCrystal() throws {
        let board = try Self.board([])
        #expect(board.channels == [.lra()])
        #expect(board.channelNames.isEmpty)
        #expect(board.clockPPM == 0)
        #expect(board.line == .usb)
    }

    @Test func channelsTakeTheActuator() throws {
        let board = try Self.board(["--channels", "3", "--actuator", "erm", "--clock-ppm", "12.5"])
        #expect(board.channels == [.erm(), .erm(), .erm()])
        #expect(board.channelNames.isEmpty)
        #expect(board.clockPPM == 12.5)
    }

    @Test(arguments: [
        ["--channel-names", "left,right,thumb,wrist"], ["--channels=4", "--channel-names=left,right,thumb,wrist"],
    ])
    func channelNamesNameTheChannelsAndImplyTheirCount(arguments: [String]) throws {
        let board = try Self.board(arguments)
        #expect(board.channels.count == 4)
        #expect(board.channelNames == [0: "left", 1: "right", 2: "thumb", 3: "wrist"])
    }

    @Test func jitterGoesOnTheLine() throws {
        #expect(try Self.board(["--jitter-us", "250"]).line.jitterMicroseconds == 250)
        #expect(try Self.board(["--jitter-us", "250", "--baud", "115200"]).line.baudRate == 115_200)
    }

    @Test(arguments: [
        (["--channels", "9"], "--channels 9: must be 1...\(BoardConfiguration.maximumChannels)"),
        (["--channels", "0"], "--channels 0: must be 1..."),
        (["--channels", "3", "--channel-names", "a,b"], "--channel-names: 2 names for --channels 3"),
        (["--channel-names", "left,,right"], "--channel-names: an empty name"),
        (["--channel-names", "seventeen-bytes-x"], "--channel-names: \"seventeen-bytes-x\" is 17 bytes, at most 16"),
        (["--clock-ppm", "40000.5"], "--clock-ppm 40000.5: must be -40000...40000"),
        (["--clock-ppm=-50000"], "--clock-ppm -50000.0: must be -40000...40000"),
        (["--clock-ppm", "fast"], "'fast' is invalid for '--clock-ppm <ppm>'"),
        (["--jitter-us", "1000001"], "--jitter-us 1000001: must be 0...1000000"),
    ])
    func badValuesAreErrorsNamingTheOption(arguments: [String], message: String) {
        let outcome = runThrum(["sim", "--pty"] + arguments)
        #expect(outcome.exitCode == ExitCode.validationFailure.rawValue)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func theBoardOptionsGoWithPty() {
        let outcome = runThrum(["sim", "--qemu", "--clock-ppm", "-40"])
        #expect(outcome.exitCode == ExitCode.validationFailure.rawValue)
        #expect(outcome.stderr.contains("--clock-ppm goes with --pty"))
    }

    @Test func theQEMUBoardIsChosenWithQEMUOnly() throws {
        let pty = runThrum(["sim", "--pty", "--board", "microbit"])
        #expect(pty.exitCode == ExitCode.validationFailure.rawValue)
        #expect(pty.stderr.contains("--board, --firmware and --actuator-log go with --qemu"), "\(pty.stderr)")
        let unknown = runThrum(["sim", "--qemu", "--board", "arduino"])
        #expect(unknown.exitCode == ExitCode.validationFailure.rawValue)
        #expect(unknown.stderr.contains("'arduino' is invalid for '--board <board>'"), "\(unknown.stderr)")
        let command = try #require(
            try ThrumCommand.parseAsRoot(["sim", "--qemu", "--board", "microbit"]) as? SimCommand)
        #expect(command.qemuBoard == .microbit)
        #expect(try #require(try ThrumCommand.parseAsRoot(["sim", "--qemu"]) as? SimCommand).qemuBoard == nil)
    }

    @Test func theBannerNamesTheChannelsAndTheCrystal() throws {
        let board = try Self.board(["--channel-names", "left,right", "--clock-ppm=-40", "--jitter-us", "200"])
        #expect(
            SimBanner.lines(for: board) == [
                "thrum sim: 2 channels: 0 lra \"left\", 1 lra \"right\"",
                "thrum sim: clock -40 ppm, line USB-like, jitter up to 200 µs",
            ])
        #expect(
            SimBanner.lines(for: try Self.board(["--clock-ppm", "2.5", "--baud", "9600"]))[1].hasPrefix(
                "thrum sim: clock +2.5 ppm, line 9600 baud"))
    }
}
