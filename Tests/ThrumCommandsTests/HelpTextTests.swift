import Testing

@testable import ThrumCommands

@Suite("Help text")
struct HelpTextTests {
    @Test func rootHelpListsEverySubcommand() {
        let help = ThrumCommand.helpMessage()
        for name in [
            "demo", "validate", "compile", "inspect", "render", "sim", "play", "info", "flash", "ports", "stream",
        ] {
            #expect(help.contains(name), "root help lacks \(name)")
        }
        #expect(help.contains("Core Haptics"))
    }

    @Test(arguments: [
        (["validate"], ["--strict", "FILE:", "LOCATION", "Exits 0"]),
        (["compile"], ["--output", "--stats", "timelineBytes", ".thrum"]),
        (["inspect"], ["offset", "<timeline>"]),
        (["render"], ["--svg", "sharpness"]),
        (["demo"], ["Examples/slice.ahap", "--svg"]),
        (["play"], ["--device", "--loop", "--rate", "THRUM_DEVICE", "usb:VID:PID"]),
        (["info"], ["--device", "--json", "capabilities"]),
        (["stream"], ["intensity sharpness", "--device", "--hold", "--baud", "stdin"]),
        (["ports"], ["--json", "--no-probe", "handshake"]),
        (["sim"], ["--pty", "--channels", "--channel-names", "--clock-ppm", "--jitter-us", "rig"]),
        (["flash"], ["store", "list", "read", "erase", "play"]),
        (["flash", "store"], ["--slot", "--device", "atomically"]),
        (["flash", "read"], ["--output", "thrum compile"]),
    ])
    func subcommandHelpExplainsItsOptions(path: [String], phrases: [String]) {
        let outcome = runThrum(path + ["--help"])
        let text = outcome.stdout + outcome.stderr
        for phrase in phrases {
            #expect(text.contains(phrase), "help for \(path) lacks \(phrase): \(text)")
        }
    }

    @Test func unknownSubcommandIsAnErrorWithUsage() {
        let outcome = runThrum(["frobnicate"])
        #expect(outcome.exitCode != 0)
        #expect(outcome.stderr.contains("Usage") || outcome.stderr.contains("usage"))
    }
}
