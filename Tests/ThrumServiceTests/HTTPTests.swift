import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import ThrumService

/// The HTTP API (Protocol/SERVICE.md §10): status, boards, and validate, compile and plot with the
/// code the `thrum` commands use.
@Suite(.timeLimit(.minutes(5))) struct HTTPTests {
    static func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func json(_ buffer: ByteBuffer) -> JSONValue {
        (try? JSONValue.parse(Data(buffer: buffer)).get()) ?? .null
    }

    @Test func statusAndBoards() async throws {
        try await ServiceHarness().run { client, _ in
            let status = try await client.execute(uri: "/api/status", method: .get)
            #expect(status.status == .ok)
            #expect(Self.json(status.body)["service"] == "thrum")
            let boards = Self.json(try await client.execute(uri: "/api/boards", method: .get).body)
            #expect(boards["boards"]?.arrayValue?.first?["channels"]?.arrayValue?.count == 2)
        }
    }

    /// HEAD answers as GET does, with no body: the studio's page and an API read.
    @Test func headAnswersLikeGet() async throws {
        try await ServiceHarness().run { client, _ in
            for uri in ["/", "/api/status"] {
                let get = try await client.execute(uri: uri, method: .get)
                let head = try await client.execute(uri: uri, method: .head)
                #expect(head.status == .ok, "HEAD \(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(uri)")
                #expect(head.body.readableBytes == 0 && get.body.readableBytes > 0, "HEAD \(uri)")
            }
        }
    }

    @Test func validateCompileAndPlot() async throws {
        let slice = try example("slice.ahap")
        try await ServiceHarness().run { client, _ in
            let valid = try await client.execute(
                uri: "/api/validate?name=slice.ahap", method: .post, body: Self.body(slice))
            #expect(valid.status == .ok)
            #expect(Self.json(valid.body)["valid"] == true)

            let broken = try await client.execute(
                uri: "/api/validate", method: .post, body: Self.body("{\"Pattern\": 3}"))
            #expect(broken.status == .unprocessableContent)
            #expect(Self.json(broken.body)["diagnostics"]?.arrayValue?.isEmpty == false)

            let compiled = try await client.execute(uri: "/api/compile", method: .post, body: Self.body(slice))
            let timeline = Data(base64Encoded: Self.json(compiled.body)["timeline"]?.stringValue ?? "") ?? Data()
            #expect(timeline.count == Self.json(compiled.body)["summary"]?["timelineBytes"]?.intValue)
            #expect(timeline.prefix(4).count == 4)

            let plot = try await client.execute(uri: "/api/plot?name=slice.ahap", method: .post, body: Self.body(slice))
            #expect(plot.status == .ok)
            #expect(plot.headers[.contentType] == "image/svg+xml")
            let svg = String(buffer: plot.body)
            #expect(svg.hasPrefix("<?xml") && svg.contains("slice.ahap") && svg.contains("acceleration"))
        }
    }

    @Test func anOversizedBodyIsRefused() async throws {
        var limits = ServiceLimits()
        limits.maxBodyBytes = 1024
        try await ServiceHarness(configuration: ServiceConfiguration(port: 0, limits: limits)).run { client, _ in
            let response = try await client.execute(
                uri: "/api/validate", method: .post, body: Self.body(String(repeating: " ", count: 5000)))
            #expect(response.status == .contentTooLarge)
            #expect(Self.json(response.body)["error"]?["code"] == "too_large")
        }
    }
}
