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

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() async throws {
        let (capabilities, faults) = try await withEngine(device: device) { engine in
            guard let capabilities = await engine.capabilities else {
                throw HapticEngineError.link("no capabilities after start")
            }
            return (capabilities, await engine.channelFaults)
        }
        if json {
            Console.current.line(try Self.json(capabilities, faults: faults))
        } else {
            for line in Self.lines(capabilities, faults: faults) { Console.current.line(line) }
        }
    }

    static func lines(_ c: BoardCapabilities, faults: [Int: WireFault] = [:]) -> [String] {
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
            lines.append(
                "channel \(index)    \(channel.kind)\(resonance), rated \(channel.ratedDriveMillivolts) mV, max \(channel.maximumDriveMillivolts) mV"
                    + (faults[index].map { "  FAULTED: \(Self.describe($0))" } ?? ""))
        }
        return lines
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

    static func json(_ c: BoardCapabilities, faults: [Int: WireFault] = [:]) throws -> String {
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
                return entry
            },
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
