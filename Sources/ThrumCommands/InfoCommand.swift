import ArgumentParser
import Foundation
import Thrum
import ThrumWire

/// `thrum info [--device D] [--json]`
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Connect to a board and print its capabilities.",
        discussion: """
            The device is `sim` (the embedded simulator), a serial device or pseudo-terminal path, or \
            usb:VID:PID[:SERIAL]; the default is $THRUM_DEVICE, else sim.
            """
    )

    @Option(help: "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim).")
    var device: String?

    @Option(help: "A rig file (JSON): print every board of the rig, its channels and its clock.")
    var rig: String?

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        if let configuration = try rigConfiguration(file: rig, devices: []) {
            let boards = try await withRig(configuration) { rig in await rig.boards }
            for line in Self.lines(boards) { Console.current.line(line) }
            return
        }
        let (capabilities, faults, names) = try await withEngine(device: device) { engine in
            guard let capabilities = await engine.capabilities else {
                throw HapticEngineError.link("no capabilities after start")
            }
            return (capabilities, await engine.channelFaults, await engine.channels?.names ?? [])
        }
        if json {
            Console.current.line(try Self.json(capabilities, faults: faults, names: names))
        } else {
            for line in Self.lines(capabilities, faults: faults, names: names) { Console.current.line(line) }
        }
    }

    static func lines(_ c: BoardCapabilities, faults: [Int: WireFault] = [:], names: [String?] = []) -> [String] {
        var lines = [
            "board        \(c.boardName) (serial \(c.serialNumber))",
            "firmware     \(c.firmware), protocol \(c.version)",
            "tick rate    \(c.tickRate) Hz",
            "players      \(c.players)",
            "timelines    \(c.maxTimelines) in \(c.timelineMemory) bytes",
            "curves       up to \(c.maxCurvePoints) points",
            "flash        \(c.flashSlots) slots of \(c.flashSlotSize) bytes",
            "audio        \(!c.audio.isPresent ? "none" : c.audioSampleRate > 0 ? "\(c.audio), plays registered sounds at \(c.audioSampleRate) Hz" : "\(c.audio), volume only (plays no samples)")",
            "link         frames up to \(c.maxPayload) bytes, window \(c.receiveWindow), keep-alive \(c.keepAlive)",
        ]
        for (index, channel) in c.channels.enumerated() {
            let resonance = channel.resonantFrequency.map { String(format: ", %.1f Hz", $0) } ?? ""
            let name = names.indices.contains(index) ? names[index].map { " \($0):" } ?? "" : ""
            lines.append(
                "channel \(index)   \(name) \(channel.kind)\(resonance), rated \(channel.ratedDriveMillivolts) mV, max \(channel.maximumDriveMillivolts) mV"
                    + (faults[index].map { "  FAULTED: \(Self.describe($0))" } ?? ""))
        }
        return lines
    }

    /// A rig: each board, its channels by the rig's names, and how its clock runs against the host's.
    static func lines(_ boards: [RigBoardStatus]) -> [String] {
        boards.flatMap { board -> [String] in
            guard let c = board.capabilities else { return ["\(board.name)  \(board.address): not connected"] }
            let drift = board.driftPPM.map { String(format: "%+.2f ppm", $0) } ?? "not measured yet"
            let bound = board.clockBound.map { String(format: ", estimate within %.0f µs", $0) } ?? ""
            var lines = [
                "\(board.name)  \(board.address): \(c.boardName) (serial \(c.serialNumber)), firmware \(c.firmware), protocol \(c.version)",
                "  clock      \(drift) against the host's\(bound)",
            ]
            for (index, channel) in c.channels.enumerated() {
                let name = board.channelNames.indices.contains(index) ? board.channelNames[index] : nil
                lines.append("  channel \(index)  \(name ?? "(no name)"): \(channel.kind)")
            }
            return lines
        }
    }

    /// A fault in words a user can act on.
    static func describe(_ fault: WireFault) -> String {
        switch fault {
        case .actuatorMissing:
            "actuator_missing (its driver chip does not answer: check the wiring; the channel stays silent)"
        case .overCurrent: "over_current (the driver cut the output)"
        case .overTemperature: "over_temperature (the driver cut the output)"
        default: "\(fault)"
        }
    }

    static func json(_ c: BoardCapabilities, faults: [Int: WireFault] = [:], names: [String?] = []) throws -> String {
        let object: [String: Any] = [
            "board": c.boardName, "serial": c.serialNumber, "firmware": c.firmware, "protocol": c.version.description,
            "tickRate": c.tickRate, "players": c.players, "maxTimelines": c.maxTimelines,
            "timelineMemory": c.timelineMemory,
            "maxCurvePoints": c.maxCurvePoints, "flashSlots": c.flashSlots, "flashSlotSize": c.flashSlotSize,
            "audio": c.audio.isPresent ? "\(c.audio)" : "none", "audioSampleRate": c.audioSampleRate,
            "maxPayload": c.maxPayload, "receiveWindow": c.receiveWindow,
            "keepAliveMilliseconds": Int(c.keepAlive.secondsDouble * 1000),
            "channels": c.channels.enumerated().map { index, channel -> [String: Any] in
                var entry: [String: Any] = [
                    "kind": "\(channel.kind)", "ratedMillivolts": channel.ratedDriveMillivolts,
                    "maxMillivolts": channel.maximumDriveMillivolts,
                ]
                if let frequency = channel.resonantFrequency { entry["resonantFrequency"] = frequency }
                if let fault = faults[index] { entry["fault"] = "\(fault)" }
                if names.indices.contains(index), let name = names[index] { entry["name"] = name }
                return entry
            },
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
