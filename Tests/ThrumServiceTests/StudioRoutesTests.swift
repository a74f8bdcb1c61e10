import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import ThrumModel
import ThrumService
import ThrumTesting

/// What the studio asks of the service over HTTP (Protocol/SERVICE.md §10): the page itself, the
/// bundled examples and the reference rendering of a pattern.
@Suite("The studio's routes")
struct StudioRoutesTests {
    /// The examples the service carries (Sources/ThrumService/Examples) are Examples/*.ahap, byte for byte.
    @Test func theBundledExamplesAreTheRepositorysExamples() throws {
        let examples = Repository.url("Examples")
        let bundled = Repository.url("Sources/ThrumService/Examples")
        let names = { (folder: URL) in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".ahap") }.sorted()
        }
        let bundledNames = try names(bundled)
        let exampleNames = try names(examples)
        #expect(bundledNames == exampleNames, "copy Examples/*.ahap to Sources/ThrumService/Examples")
        for name in try names(examples) {
            let original = try Data(contentsOf: examples.appendingPathComponent(name))
            let copy = try? Data(contentsOf: bundled.appendingPathComponent(name))
            #expect(copy == original, "Sources/ThrumService/Examples/\(name) differs from Examples/\(name)")
        }
    }

    @Test func examplesAreListedAndServed() async throws {
        try await ServiceHarness().run { client, _ in
            try await client.execute(uri: "/api/examples", method: .get) { response in
                #expect(response.status == .ok)
                let listed = try JSONValue.parse(Data(buffer: response.body)).get()
                let names = listed["examples"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                #expect(names.contains("slice.ahap") && names.contains("palette-continuous.ahap"), "\(names)")
            }
            try await client.execute(uri: "/api/examples/slice.ahap", method: .get) { response in
                #expect(response.status == .ok)
                let original = try Data(contentsOf: Repository.url("Examples/slice.ahap"))
                #expect(Data(buffer: response.body) == original)
            }
            for missing in ["/api/examples/nothing.ahap", "/api/examples/..%2FPackage.swift", "/api/examples/.hidden"] {
                try await client.execute(uri: missing, method: .get) { response in
                    #expect(response.status == .notFound, "\(missing)")
                }
            }
        }
    }

    @Test func renderReturnsTheReferenceRenderersSamples() async throws {
        let text = try example("slice.ahap")
        let pattern = try #require(PatternFile.read(data: Data(text.utf8), name: "slice").pattern)
        let reference = ReferenceRenderer.render(
            pattern, sampleRate: 1000, duration: ReferenceRenderer.renderedDuration(of: pattern))
        try await ServiceHarness().run { client, _ in
            try await client.execute(uri: "/api/render?rate=1000", method: .post, body: ByteBuffer(string: text)) {
                response in
                #expect(response.status == .ok)
                let rendering = try JSONValue.parse(Data(buffer: response.body)).get()
                #expect(rendering["sampleRate"]?.doubleValue == 1000)
                let intensity = rendering["intensity"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                #expect(intensity.count == reference.intensity.values.count)
                let worst = zip(intensity, reference.intensity.values).map { abs($0 - Double($1)) }.max() ?? 1
                #expect(worst <= 0.000_051, "largest difference \(worst)")
                #expect(rendering["sharpness"]?.arrayValue?.count == intensity.count)
            }
            try await client.execute(
                uri: "/api/render", method: .post,
                body: ByteBuffer(string: #"{"Version": 1, "Pattern": [{"Event": {"Time": -1}}]}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("diagnostics"))
            }
        }
    }

    @Test func theStudioIsThePageAndTheAPIPageStays() async throws {
        try await ServiceHarness().run { client, _ in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>Thrum Studio</title>"))
            }
            for page in ["/web/api.html", "/web/studio.js", "/web/plot-view.js", "/web/studio.css"] {
                try await client.execute(uri: page, method: .get) { response in
                    #expect(response.status == .ok, "\(page)")
                }
            }
        }
    }

    /// `thrum serve --watch FILE`: the file over HTTP, read and saved (the event is in the vectors).
    @Test func theWatchedFileIsReadAndSaved() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-watch-\(UUID()).ahap")
        try Data(try example("slice.ahap").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let harness = ServiceHarness()
        try await harness.run { client, _ in
            try await client.execute(uri: "/api/watch", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""watching":false"#))
            }
            try await client.execute(uri: "/api/watch", method: .put, body: ByteBuffer(string: "{}")) { response in
                #expect(response.status == .notFound)
            }
            await harness.hub.watch(file.path)
            try await client.execute(uri: "/api/watch", method: .get) { response in
                #expect(response.status == .ok)
                let watched = try JSONValue.parse(Data(buffer: response.body)).get()
                #expect(watched["watching"] == true)
                #expect(watched["name"]?.stringValue == file.lastPathComponent)
                let original = try example("slice.ahap")
                #expect(watched["text"]?.stringValue == original)
            }
            let edited = try example("swish.ahap")
            try await client.execute(uri: "/api/watch", method: .put, body: ByteBuffer(string: edited)) { response in
                #expect(response.status == .ok)
            }
            let saved = try String(contentsOf: file, encoding: .utf8)
            #expect(saved == edited)
        }
    }
}
