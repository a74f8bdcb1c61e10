import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import ThrumService

/// Every rule of the security model (Protocol/SERVICE.md §9), in the order it states them.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SecurityTests {
    let loopback = RequestGuard(bindHost: "127.0.0.1", port: 7878, token: nil)

    // Rule 1: loopback by default; any other address needs a token.
    @Test func anAddressBeyondLoopbackNeedsAToken() throws {
        #expect(throws: ServiceConfigurationError.self) { try ServiceConfiguration(host: "0.0.0.0").validate() }
        #expect(throws: ServiceConfigurationError.self) { try ServiceConfiguration(host: "192.0.2.7").validate() }
        #expect(throws: ServiceConfigurationError.self) {
            try ServiceConfiguration(host: "0.0.0.0", token: "short").validate()
        }
        try ServiceConfiguration(host: "0.0.0.0", token: "a-long-enough-secret").validate()
        try ServiceConfiguration().validate()
        try ServiceConfiguration(host: "::1").validate()
        #expect(ServiceConfiguration().host == "127.0.0.1")
    }

    // Rule 2: the Host header against DNS rebinding.
    @Test func aForeignHostIsRefused() {
        #expect(loopback.check(host: "127.0.0.1:7878", origin: nil, presentedToken: nil, needsToken: true) == .allow)
        #expect(loopback.check(host: "localhost:7878", origin: nil, presentedToken: nil, needsToken: true) == .allow)
        #expect(loopback.check(host: "[::1]:7878", origin: nil, presentedToken: nil, needsToken: true) == .allow)
        #expect(loopback.check(host: "LOCALHOST", origin: nil, presentedToken: nil, needsToken: true) == .allow)
        guard
            case .refuse(403, let reason) = loopback.check(
                host: "attacker.example:7878", origin: nil, presentedToken: nil, needsToken: true)
        else {
            Issue.record("a rebound name got through")
            return
        }
        #expect(reason.contains("attacker.example"))
        #expect(
            loopback.check(host: "127.0.0.1.attacker.example", origin: nil, presentedToken: nil, needsToken: false)
                != .allow)
        #expect(loopback.check(host: nil, origin: nil, presentedToken: nil, needsToken: false) != .allow)
        // Beyond loopback the token guards, whatever name the client used.
        let wide = RequestGuard(bindHost: "0.0.0.0", port: 7878, token: "a-long-enough-secret")
        #expect(
            wide.check(
                host: "studio-pc.local:7878", origin: nil, presentedToken: "a-long-enough-secret", needsToken: true)
                == .allow)
    }

    // Rule 3: Origin: the service's own pages and --allow-origin only; no Origin is a program.
    @Test func foreignOriginsAreRefused() {
        #expect(
            loopback.check(
                host: "127.0.0.1:7878", origin: "http://127.0.0.1:7878", presentedToken: nil, needsToken: true)
                == .allow)
        #expect(
            loopback.check(
                host: "localhost:7878", origin: "http://localhost:7878", presentedToken: nil, needsToken: true)
                == .allow)
        for origin in ["http://evil.example", "https://127.0.0.1:7878", "http://127.0.0.1:9999", "null", "file://"] {
            #expect(
                loopback.check(host: "127.0.0.1:7878", origin: origin, presentedToken: nil, needsToken: true) != .allow,
                "\(origin) got through")
        }
        let allowing = RequestGuard(
            bindHost: "127.0.0.1", port: 7878, token: nil, allowedOrigins: ["http://localhost:3000/"])
        #expect(
            allowing.check(
                host: "127.0.0.1:7878", origin: "http://LOCALHOST:3000", presentedToken: nil, needsToken: true)
                == .allow)
        #expect(
            loopback.check(host: "127.0.0.1:7878", origin: "ws://localhost", presentedToken: nil, needsToken: true)
                == .allow)
    }

    // Rule 4: the token on the API and the WebSocket, not on the page's files.
    @Test func theTokenIsRequiredWhereItGuards() {
        let guarded = RequestGuard(bindHost: "127.0.0.1", port: 7878, token: "a-long-enough-secret")
        #expect(
            guarded.check(host: "127.0.0.1:7878", origin: nil, presentedToken: nil, needsToken: true)
                == .refuse(
                    status: 401, reason: "this service needs its token: `Authorization: Bearer TOKEN` or `?token=TOKEN`"
                ))
        #expect(
            guarded.check(host: "127.0.0.1:7878", origin: nil, presentedToken: "a-long-enough-secreT", needsToken: true)
                == .refuse(status: 401, reason: "wrong token"))
        #expect(
            guarded.check(host: "127.0.0.1:7878", origin: nil, presentedToken: "a-long-enough-secret", needsToken: true)
                == .allow)
        #expect(guarded.check(host: "127.0.0.1:7878", origin: nil, presentedToken: nil, needsToken: false) == .allow)
    }

    // Rules 2–4 and 9 over HTTP, through the real middleware.
    @Test func theMiddlewareRefusesOverHTTP() async throws {
        let harness = ServiceHarness(
            configuration: ServiceConfiguration(
                port: 0, token: "a-long-enough-secret", allowedOrigins: ["http://localhost:3000"]))
        try await harness.run { client, port in
            let unauthorized = try await client.execute(uri: "/api/status", method: .get)
            #expect(unauthorized.status == .unauthorized)
            try await client.execute(uri: "/api/status?token=a-long-enough-secret", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
            }
            try await client.execute(
                uri: "/api/status", method: .get,
                headers: [.authorization: "Bearer a-long-enough-secret", .origin: "http://evil.example"]
            ) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("--allow-origin"))
            }
            try await client.execute(
                uri: "/api/status", method: .get,
                headers: [.authorization: "Bearer a-long-enough-secret", .origin: "http://localhost:3000"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            }
            // The page needs no token, and says nothing can be loaded from elsewhere.
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(
                    response.headers[.contentSecurityPolicy]
                        == "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; frame-ancestors 'none'"
                )
            }
            try await client.execute(uri: "/web/../Package.swift", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    // Rule 3 on the WebSocket handshake: a foreign page cannot open a socket; rule 4 likewise. (A
    // WebSocket library sets Origin itself, so the browser's handshake goes through the router, and
    // through a real socket in the browser tests.)
    @Test func theHandshakeIsGuarded() async throws {
        let harness = ServiceHarness(configuration: ServiceConfiguration(port: 0, token: "a-long-enough-secret"))
        try await harness.server.makeApplication().test(.router) { client in
            let handshake: HTTPFields = [
                .connection: "Upgrade", .upgrade: "websocket", .secWebSocketVersion: "13",
                .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ==", .origin: "http://evil.example",
            ]
            let foreign = try await client.execute(
                uri: "/ws?token=a-long-enough-secret", method: .get, headers: handshake)
            #expect(foreign.status == .forbidden)
        }
        try await harness.run { _, port in
            await #expect(throws: (any Error).self) {
                try await ServiceSocket.connect(port: port, path: "/ws") { _ in Issue.record("no token opened a socket")
                }
            }
            await #expect(throws: (any Error).self) {
                try await ServiceSocket.connect(port: port, path: "/ws?token=wrong-but-long-enough") { _ in
                    Issue.record("a wrong token opened a socket")
                }
            }
            try await ServiceSocket.connect(port: port, path: "/ws?token=a-long-enough-secret") { socket in
                let now = try await socket.result("time")["now"]
                #expect(now != nil)
            }
        }
    }

    // Rules 5 and 6: an oversized message is answered, the connection stays.
    @Test func anOversizedMessageIsAnsweredAndTheConnectionStays() async throws {
        var limits = ServiceLimits()
        limits.maxMessageBytes = 64 * 1024
        try await ServiceHarness(configuration: ServiceConfiguration(port: 0, limits: limits)).run { _, port in
            try await ServiceSocket.connect(port: port) { socket in
                let huge = String(repeating: "x", count: 100_000)
                try await socket.send(["type": "pattern.load", "id": 1, "text": .string(huge)])
                let error = try await socket.next { $0["type"] == "error" }
                #expect(error["error"]?["code"] == "too_large")
                #expect(error["error"]?["details"]?["limit"] == .int(64 * 1024))
                let now = try await socket.result("time")["now"]
                #expect(now != nil)
            }
        }
    }

    // Rule 7: a client that floods requests is limited; another client is not.
    @Test func aFloodingClientCannotStarveAnother() async throws {
        var limits = ServiceLimits()
        limits.requestsPerSecond = 50
        limits.requestBurst = 100
        try await ServiceHarness(configuration: ServiceConfiguration(port: 0, limits: limits)).run { _, port in
            try await ServiceSocket.connect(port: port) { flooder in
                for index in 0..<400 { try await flooder.send(["type": "time", "id": .int(10_000 + index)]) }
                let limited = try await flooder.next { $0["error"]?["code"] == "rate_limited" }
                #expect(limited["request"] == "time")
                try await ServiceSocket.connect(port: port) { other in
                    let now = try await other.result("time")["now"]
                    #expect(now != nil)
                }
            }
        }
    }

    // Rule 8: one client cannot touch another's players; a client that leaves takes only its own.
    @Test func clientsAreIsolatedAndALeavingClientStopsOnlyItsPlayers() async throws {
        let harness = ServiceHarness(channels: 2)
        try await harness.run { _, port in
            let swish = try example("swish.ahap")
            try await ServiceSocket.connect(port: port) { stayer in
                let pattern = try await stayer.result("pattern.load", ["text": .string(swish)])["pattern"]!
                let right = try await stayer.result("player.create", ["pattern": pattern, "locality": "right"])[
                    "player"]!
                try await ServiceSocket.connect(port: port) { leaver in
                    let theirs = try await leaver.result("pattern.load", ["text": .string(swish)])["pattern"]!
                    let leftPlayer = try await leaver.result("player.create", ["pattern": theirs, "locality": "left"])[
                        "player"]!
                    try await leaver.result("player.start", ["player": leftPlayer])
                    try await stayer.result("player.start", ["player": right])
                    let trespass = try await stayer.request("player.stop", ["player": leftPlayer])
                    #expect(trespass["error"]?["code"] == "unknown_id")
                    let borrowed = try await stayer.request("player.create", ["pattern": theirs])
                    #expect(borrowed["error"]?["code"] == "unknown_id")
                    try await Task.sleep(for: .milliseconds(200))
                }
                // The leaver is gone mid-play: its player stops, the stayer's plays on.
                let now = try await stayer.result("time")["now"]!.doubleValue!
                try await Task.sleep(for: .milliseconds(300))
                let from = UInt32((now + 0.1) * 1e6)
                let left = try await harness.engine.readTrace(channel: 0, from: from, count: 100).intensities
                let rightLevels = try await harness.engine.readTrace(channel: 1, from: from, count: 100).intensities
                #expect(left.count == 100 && left.allSatisfy { $0 == 0 }, "left still sounds: \(left.prefix(5))")
                #expect(rightLevels.count == 100 && rightLevels.allSatisfy { abs($0 - 0.5) < 0.01 })
                let status = try await stayer.result("status")
                #expect(status["clients"]?.arrayValue?.count == 1)
            }
        }
    }
}
