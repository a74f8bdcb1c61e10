import Foundation
import Testing
import Thrum
import ThrumSimulator
import ThrumTesting

@testable import ThrumCommands

/// `thrum play` and `thrum info` against the embedded simulator, as a user runs them. `play` to a
/// pattern's end is held to wall-clock bounds, so it lives in PlayWallClockTests.
@Suite("play and info on the embedded simulator")
struct PlayInfoCommandTests {
    @Test("info prints the simulated board's capabilities, as text and as JSON")
    func info() async throws {
        let text = await runThrumAsync(["info", "--device", "sim"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("board        thrum simulator"))
        #expect(text.stdout.contains("channel 0    lra"))
        let json = await runThrumAsync(["info", "--device", "sim", "--json"])
        #expect(json.exitCode == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["board"] as? String == "thrum simulator")
        #expect((object["players"] as? Int ?? 0) >= 1)
        #expect((object["channels"] as? [[String: Any]])?.first?["kind"] as? String == "lra")
    }

    @Test(
        "a device that is not there, or not an address, is an error naming it",
        arguments: [
            (["--device", "/dev/thrum-no-such-board"], "/dev/thrum-no-such-board"),
            (["--device", "COM3"], "is not a device address"),
        ])
    func badDevice(arguments: [String], words: String) async {
        let outcome = await runThrumAsync(["play"] + arguments + [example("slice.ahap")])
        #expect(outcome.exitCode == 1)
        #expect(outcome.stderr.contains(words), "\(outcome.stderr)")
    }

    @Test("a rate outside 1/256…16 is refused before anything is opened")
    func badRate() async {
        let outcome = await runThrumAsync(["play", "--rate", "20", example("slice.ahap")])
        #expect(outcome.exitCode != 0)
        #expect(outcome.stderr.contains("--rate 20"))
    }
}

@Suite("thrum ports")
struct PortsCommandTests {
    @Test("lists the machine's serial ports as JSON, each with its path and transport")
    func listsPorts() async throws {
        let outcome = await runThrumAsync(["ports", "--json", "--no-probe"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let ports = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]])
        for port in ports {
            #expect((port["path"] as? String)?.hasPrefix("/dev/") == true, "\(port)")
            #expect(["native", "usb", "bluetooth"].contains(port["transport"] as? String ?? ""), "\(port)")
        }
    }
}

@Suite("thrum play's live meter")
struct LiveMeterTests {
    @Test("bars are proportional and values are printed beside them")
    func meterLine() {
        let line = LiveMeter.line(intensity: 0.5, sharpness: 1, elapsed: 1.25)
        #expect(
            line.hasPrefix(
                "intensity " + String(repeating: "█", count: 10) + String(repeating: "·", count: 10) + " 0.50"),
            "\(line)")
        #expect(line.contains("sharpness " + String(repeating: "█", count: 20) + " 1.00"), "\(line)")
        #expect(line.hasSuffix("1.25 s"), "\(line)")
        #expect(
            LiveMeter.line(intensity: 3, sharpness: -1, elapsed: 0).contains(
                "█" + String(repeating: "█", count: 19) + " 3.00"), "bars clip, values do not")
    }
}

@Suite("thrum stream's keyboard palette")
struct KeyboardPaletteTests {
    @Test("arrow keys, vi keys, digits, space and q do what the help says; values stay within 0…1")
    func keys() {
        let bytes: [UInt8] = Array("\u{1B}[A\u{1B}[Ak\u{1B}[Cl5 x".utf8)
        #expect(KeyboardPalette.keys(in: bytes) == [.up, .up, .up, .right, .right, .digit(5), .space, .other])
        var palette = KeyboardPalette()
        for key in KeyboardPalette.keys(in: Array("\u{1B}[A\u{1B}[A\u{1B}[C".utf8)) {
            let goesOn = palette.apply(key)
            #expect(goesOn)
        }
        #expect(palette.intensity == 0.7 && palette.sharpness == 0.6)
        for _ in 0..<20 {
            _ = palette.apply(.up)
            _ = palette.apply(.left)
        }
        #expect(palette.intensity == 1 && palette.sharpness == 0)
        _ = palette.apply(.digit(3))
        #expect(palette.intensity == 0.3)
        _ = palette.apply(.space)
        #expect(palette.output.intensity == 0 && palette.silenced)
        let goesOn = palette.apply(.quit)
        #expect(!goesOn)
        #expect(KeyboardPalette.keys(in: [0x03, 0x04]) == [.quit, .quit], "Ctrl-C and Ctrl-D end it too")
    }
}

@Suite("A board with a channel whose driver does not answer")
struct MissingActuatorTests {
    @Test("the engine knows the channel is faulted once started, and info says so; the other channel plays")
    func infoShowsTheFault() async throws {
        let clock = ManualClock()
        var board = BoardConfiguration()
        board.channels = [.lra(), .erm()]
        board.missingActuators = [0]
        let engine = HapticEngine(manualClock: clock, simulator: board)
        try await clock.drive { try await engine.start() }
        let faults = await engine.channelFaults
        #expect(faults == [0: .actuatorMissing])
        let capabilities = try #require(await engine.capabilities)
        let lines = InfoCommand.lines(capabilities, faults: faults)
        #expect(lines.contains { $0.hasPrefix("channel 0") && $0.contains("FAULTED: actuator_missing") })
        #expect(lines.contains { $0.hasPrefix("channel 1") && !$0.contains("FAULTED") })
        let json = try InfoCommand.json(capabilities, faults: faults)
        #expect(json.contains("\"fault\""))
        try await clock.drive { await engine.stop() }
    }
}
