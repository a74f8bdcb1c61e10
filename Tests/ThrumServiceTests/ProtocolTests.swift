import Foundation
import Testing
import Thrum
import ThrumService

/// The WebSocket protocol as a program uses it (Protocol/SERVICE.md §3–§7), on the embedded simulator.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ProtocolTests {
    @Test func helloStatesTheVersionAndTheBoards() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let hello = try await socket.result("hello", ["version": 1, "client": "test"])
                #expect(hello["protocol"] == 1)
                #expect(hello["service"] == "thrum")
                let board = hello["boards"]?.arrayValue?.first
                #expect(board?["channels"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["left", "right"])
                let refused = try await socket.request("hello", ["version": 2])
                #expect(refused["error"]?["code"] == "version_mismatch")
                #expect(refused["error"]?["field"] == "version")
            }
        }
    }

    @Test func badMessagesGetErrorsNamingTheFieldAndTheConnectionStays() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                try await socket.send(text: "{not json")
                let notJSON = try await socket.next { $0["type"] == "error" }
                #expect(notJSON["error"]?["code"] == "bad_json")
                #expect(notJSON["id"] == .null)
                try await socket.send(text: "[1, 2]")
                #expect(try await socket.next { $0["type"] == "error" }["error"]?["code"] == "bad_json")

                let unknown = try await socket.request("player.dance")
                #expect(unknown["error"]?["code"] == "unknown_type")
                #expect(unknown["error"]?["field"] == "type")
                let wrongType = try await socket.request("player.start", ["player": "three"])
                #expect(wrongType["error"]?["code"] == "bad_request")
                #expect(wrongType["error"]?["field"] == "player")
                let missing = try await socket.request("pattern.load", [:])
                #expect(missing["error"]?["field"] == "text")
                let noPlayer = try await socket.request("player.stop", ["player": 999])
                #expect(noPlayer["error"]?["code"] == "unknown_id")
                let badTime = try await socket.request("player.start", ["player": 1, "at": "soon"])
                #expect(badTime["error"]?["field"] != nil)
                let badParameter = try await socket.request(
                    "player.parameters", ["player": 1, "parameters": ["loudness": 1], "at": "now"])
                #expect(
                    badParameter["error"]?["field"] == "player"
                        || badParameter["error"]?["field"] == "parameters.loudness")
                // Still up: a request after all that is answered.
                #expect(try await socket.result("time")["now"]?.doubleValue != nil)
            }
        }
    }

    @Test func aBrokenPatternShowsItsDiagnosticsAndLoadsNothing() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let broken = #"{"Pattern": [{"Event": {"EventType": "HapticTransient", "Time": "soon"}}]}"#
                let reply = try await socket.request("pattern.load", ["text": .string(broken), "name": "broken.ahap"])
                #expect(reply["error"]?["code"] == "invalid_pattern")
                let diagnostics = reply["error"]?["details"]?["diagnostics"]?.arrayValue ?? []
                #expect(
                    diagnostics.contains {
                        $0["severity"] == "error" && $0["location"]?.stringValue?.contains("Time") == true
                    })
                let status = try await socket.result("status")
                #expect(status["clients"]?.arrayValue?.first?["patterns"] == 0)
            }
        }
    }

    @Test func aPatternPlaysToItsEndAndTheOwnerHearsOfIt() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let loaded = try await socket.result(
                    "pattern.load", ["text": .string(try example("slice.ahap")), "name": "slice.ahap"])
                #expect(loaded["summary"]?["events"]?.arrayValue?.isEmpty == false)
                #expect((loaded["summary"]?["timelineBytes"]?.intValue ?? 0) > 0)
                let player = try await socket.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                try await socket.result("player.start", ["player": player])
                let finished = try await socket.next { $0["event"] == "player.finished" }
                #expect(finished["player"] == player)
                #expect(finished["time"]?.doubleValue != nil)
            }
        }
    }

    @Test func aStartAtAServiceTimePlaysThen() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let loaded = try await socket.result("pattern.load", ["text": .string(try example("slice.ahap"))])
                let player = try await socket.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                let now = try await socket.result("time")["now"]!.doubleValue!
                try await socket.result("player.start", ["player": player, "at": .number(now + 0.3)])
                let finished = try await socket.next { $0["event"] == "player.finished" }
                let duration = loaded["summary"]!["renderedDuration"]!.doubleValue!
                // It ended no earlier than its start time plus its length (the event names the service time).
                #expect(finished["time"]!.doubleValue! >= now + 0.3 + duration - 0.01)
            }
        }
    }

    @Test func realtimeParametersReachTheBoardAndTheTraceShowsThem() async throws {
        try await ServiceHarness(channels: 1).run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let loaded = try await socket.result("pattern.load", ["text": .string(try example("swish.ahap"))])
                let player = try await socket.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                let subscribed = try await socket.result("trace.subscribe", ["rate": 50])
                #expect(subscribed["channels"]?.arrayValue?.count == 1)
                try await socket.result("player.start", ["player": player])
                // Full, then a stream that ends at 0.25: the newest value is what the board renders.
                for step in 0..<200 {
                    let value = 1.0 - 0.75 * Double(step) / 199
                    try await socket.send([
                        "type": "player.parameters", "player": player, "parameters": ["intensity": .number(value)],
                    ])
                }
                let acknowledged = try await socket.request(
                    "player.parameters", ["player": player, "parameters": ["intensity": 0.25]])
                #expect(acknowledged["type"] == "reply")
                // Once the stream's newest value has played, the board renders swish's 0.5 times 0.25.
                let settled = try await socket.result("time")["now"]!.doubleValue! + 0.05
                var levels: [Double] = []
                while levels.count < 100 {
                    let trace = try await socket.next { $0["event"] == "trace" }
                    let (start, tick) = (trace["start"]!.doubleValue!, trace["tick"]!.doubleValue!)
                    for (index, sample) in (trace["samples"]?.arrayValue ?? []).enumerated()
                    where start + Double(index) * tick >= settled {
                        levels.append(sample.doubleValue!)
                    }
                }
                #expect(levels.allSatisfy { abs($0 - 0.125) < 0.01 }, "rendered \(levels.prefix(10))…")
                try await socket.result("player.stop", ["player": player])
                let status = try await socket.result("status")
                #expect((status["clients"]?.arrayValue?.first?["realtimeSent"]?.intValue ?? 0) >= 1)
            }
        }
    }

    @Test func flashStoreListReadEraseWithProgress() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let loaded = try await socket.result("pattern.load", ["text": .string(try example("splash.ahap"))])
                let stored = try await socket.request("flash.store", ["pattern": loaded["pattern"]!, "slot": 1])
                #expect(stored["type"] == "reply", "\(stored.encoded)")
                let progress = try await socket.next { $0["event"] == "flash.progress" }
                #expect(progress["total"] == stored["result"]?["bytes"])
                let slots = try await socket.result("flash.list")["slots"]?.arrayValue ?? []
                #expect(slots.first { $0["slot"] == 1 }?["used"] == true)
                let read = try await socket.result("flash.read", ["slot": 1])
                let bytes = Data(base64Encoded: read["base64"]?.stringValue ?? "") ?? Data()
                #expect(bytes.count == stored["result"]?["bytes"]?.intValue)
                try await socket.result("flash.play", ["slot": 1])
                try await socket.result("flash.erase", ["slot": 1])
                let after = try await socket.result("flash.list")["slots"]?.arrayValue ?? []
                #expect(after.first { $0["slot"] == 1 }?["used"] == false)
            }
        }
    }
}

/// The transport controls answer, and a rate outside the board's range is refused by name.
@Suite(.timeLimit(.minutes(5))) struct TransportControlTests {
    @Test func everyControlAnswers() async throws {
        try await ServiceHarness().run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let loaded = try await socket.result("pattern.load", ["text": .string(try example("swish.ahap"))])
                let player = try await socket.result("player.create", ["pattern": loaded["pattern"]!])["player"]!
                try await socket.result("player.loop", ["player": player, "enabled": true, "end": 2])
                try await socket.result("player.rate", ["player": player, "rate": 2])
                try await socket.result("player.start", ["player": player])
                try await socket.result("player.pause", ["player": player])
                try await socket.result("player.seek", ["player": player, "offset": 1.5])
                try await socket.result("player.resume", ["player": player, "at": "now"])
                try await socket.result("player.locality", ["player": player, "locality": "right"])
                try await socket.result("player.pan", ["player": player, "position": 0.5, "at": "now"])
                let tooFast = try await socket.request("player.rate", ["player": player, "rate": 100])
                #expect(tooFast["error"]?["field"] == "rate")
                let nowhere = try await socket.request("player.locality", ["player": player, "locality": "elbow"])
                #expect(nowhere["error"]?["code"] == "bad_request")
                try await socket.result("player.destroy", ["player": player])
                let gone = try await socket.request("player.stop", ["player": player])
                #expect(gone["error"]?["code"] == "unknown_id")
            }
        }
    }
}
