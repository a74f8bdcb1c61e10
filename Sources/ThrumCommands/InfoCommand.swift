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
        let capabilities = try await withEngine(device: device) { engine in
            guard let capabilities = await engine.capabilities else {
                throw HapticEngineError.link("no capabilities after start")
            }
            return capabilities
        }
        if json {
            Console.current.line(try Self.json(capabilities))
        } else {
            for line in Self.lines(capabilities) { Console.current.line(line) }
        }
    }

    static func lines(_ c: BoardCapabilities) -> [String] {
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
            )
        }
        return lines
    }

    static func json(_ c: BoardCapabilities) throws -> String {
        let object: [String: Any] = [
            "board": c.boardName, "serial": c.serialNumber, "firmware": c.firmware, "protocol": c.version.description,
            "tickRate": c.tickRate, "players": c.players, "maxTimelines": c.maxTimelines,
            "timelineMemory": c.timelineMemory,
            "maxCurvePoints": c.maxCurvePoints, "flashSlots": c.flashSlots, "flashSlotSize": c.flashSlotSize,
            "audio": c.audio.isPresent ? "\(c.audio)" : "none", "audioSampleRate": c.audioSampleRate,
            "maxPayload": c.maxPayload, "receiveWindow": c.receiveWindow,
            "keepAliveMilliseconds": Int(c.keepAlive.secondsDouble * 1000),
            "channels": c.channels.map { channel -> [String: Any] in
                var entry: [String: Any] = [
                    "kind": "\(channel.kind)", "ratedMillivolts": channel.ratedDriveMillivolts,
                    "maxMillivolts": channel.maximumDriveMillivolts,
                ]
                if let frequency = channel.resonantFrequency { entry["resonantFrequency"] = frequency }
                return entry
            },
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
