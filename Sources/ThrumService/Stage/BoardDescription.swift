import Thrum
import ThrumWire

/// How boards and their links look in the service's JSON (Protocol/SERVICE.md §6.2).
enum BoardDescription {
    static func json(
        name: String, address: String, present: Bool, capabilities: BoardCapabilities?, channelNames: [String?],
        faults: [Int: WireFault], localities: [String: String], driftPPM: Double? = nil
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "address": .string(address), "present": .bool(present),
        ]
        if let c = capabilities {
            object["board"] = .string(c.boardName)
            object["firmware"] = .string(c.firmware)
            object["protocol"] = .string(c.version.description)
            object["players"] = .int(c.players)
            object["timelineMemory"] = .int(c.timelineMemory)
            object["flashSlots"] = .int(c.flashSlots)
            object["tickRate"] = .int(c.tickRate)
            object["audio"] = .string(c.audio.isPresent ? "\(c.audio)" : "none")
        }
        let count = max(channelNames.count, capabilities?.channels.count ?? 0)
        object["channels"] = .array(
            (0..<count).map { index in
                var channel: [String: JSONValue] = ["index": .int(index)]
                if channelNames.indices.contains(index), let name = channelNames[index] {
                    channel["name"] = .string(name)
                }
                if let kind = capabilities?.channels[safe: index]?.kind { channel["kind"] = .string("\(kind)") }
                if let fault = faults[index] { channel["fault"] = .string("\(fault)") }
                return .object(channel)
            })
        object["localities"] = .object(localities.mapValues { .string($0) })
        if let driftPPM { object["driftPPM"] = .number(driftPPM) }
        return .object(object)
    }

    static func linkJSON(board: String, statistics s: LinkStatistics) -> JSONValue {
        [
            "board": .string(board), "framesSent": .int(s.framesSent), "framesReceived": .int(s.framesReceived),
            "bytesSent": .int(s.bytesSent), "bytesReceived": .int(s.bytesReceived),
            "retransmissions": .int(s.retransmissions),
        ]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
