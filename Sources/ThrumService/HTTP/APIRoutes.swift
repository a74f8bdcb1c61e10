import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import ThrumModel
import ThrumPlot
import ThrumSimulator

/// The HTTP API (Protocol/SERVICE.md §10): read-only status and boards, and validate, compile and
/// plot for a pattern POSTed as the request body, with the code `thrum validate`, `thrum compile`
/// and `thrum render` use.
struct APIRoutes: Sendable {
    let hub: ServiceHub
    let limits: ServiceLimits

    func add(to router: Router<BasicWebSocketRequestContext>) {
        let hub = hub
        router.get("/api/status") { _, _ in JSONResponse.make(await hub.status()) }
        router.get("/api/boards") { _, _ in
            JSONResponse.make(["boards": .array(await hub.stage.boardDescriptions())])
        }
        router.post("/api/validate") { request, context in
            try await report(request, context) { report in
                JSONResponse.make(
                    status: report.hasErrors ? .unprocessableContent : .ok,
                    ["valid": .bool(!report.hasErrors), "diagnostics": report.diagnosticsJSON])
            }
        }
        router.post("/api/compile") { request, context in
            try await report(request, context) { report in
                JSONResponse.make(
                    status: report.hasErrors ? .unprocessableContent : .ok,
                    [
                        "diagnostics": report.diagnosticsJSON, "summary": report.summaryJSON,
                        "timeline": report.timeline.map { .string(Data($0).base64EncodedString()) } ?? .null,
                    ])
            }
        }
        router.get("/api/watch") { _, _ in
            // Not a 404 without --watch: the studio asks each time it connects.
            guard let file = await hub.watchedFile, let text = file.text() else {
                return JSONResponse.make(["watching": false])
            }
            return JSONResponse.make(["watching": true, "name": .string(file.name), "text": .string(text)])
        }
        router.put("/api/watch") { request, _ in
            guard let file = await hub.watchedFile else { return Self.notWatching }
            guard let body = try? await request.body.collect(upTo: file.maxBytes) else {
                return JSONResponse.error(
                    .contentTooLarge, code: "too_large", message: "the text is larger than \(file.maxBytes) bytes")
            }
            do {
                try file.write(Data(buffer: body))
            } catch {
                return JSONResponse.error(
                    .internalServerError, code: "io", message: "cannot write \(file.name): \(error)")
            }
            return JSONResponse.make(["name": .string(file.name), "bytes": .int(body.readableBytes)])
        }
        router.post("/api/render") { request, context in
            try await report(request, context) { report in
                guard let pattern = report.pattern else {
                    return JSONResponse.make(status: .unprocessableContent, ["diagnostics": report.diagnosticsJSON])
                }
                let rate = request.uri.queryParameters["rate"].flatMap { Double(String($0)) } ?? 1000
                return JSONResponse.make(Self.rendering(pattern, sampleRate: rate))
            }
        }
        router.post("/api/plot") { request, context in
            try await report(request, context) { report in
                guard let pattern = report.pattern else {
                    return JSONResponse.make(status: .unprocessableContent, ["diagnostics": report.diagnosticsJSON])
                }
                let model: ActuatorModel? =
                    switch request.uri.queryParameters["actuator"].map(String.init) ?? "lra" {
                    case "erm": .erm()
                    case "none": nil
                    default: .lra()
                    }
                let lane = model.flatMap { try? PatternPlot.ActuatorLane.simulated(for: pattern, model: $0) }
                let svg = PatternPlot(title: report.name, pattern: pattern, actuator: lane).svg()
                var buffer = ByteBuffer()
                buffer.writeString(svg)
                return Response(status: .ok, headers: [.contentType: "image/svg+xml"], body: .init(byteBuffer: buffer))
            }
        }
    }

    static var notWatching: Response {
        JSONResponse.error(
            .notFound, code: "not_watching", message: "the service watches no file (thrum serve --watch FILE)")
    }

    /// The longest rendering `/api/render` returns, in seconds (a longer pattern is cut).
    static let maximumRenderSeconds = 120.0

    /// The reference renderer's intensity and sharpness (Protocol/SEMANTICS.md) of `pattern` played
    /// once from 0, at `sampleRate` (100…10,000 a second), values rounded to 1e-4.
    static func rendering(_ pattern: HapticPattern, sampleRate: Double) -> JSONValue {
        let rate = min(10_000, max(100, sampleRate.isFinite ? sampleRate : 1000))
        let duration = min(maximumRenderSeconds, ReferenceRenderer.renderedDuration(of: pattern))
        let channel = ReferenceRenderer.render(pattern, sampleRate: rate, duration: duration)
        let values = { (lane: RenderedLane) -> JSONValue in
            .array(lane.values.map { .number((Double($0) * 10_000).rounded() / 10_000) })
        }
        return [
            "sampleRate": .number(rate), "start": .number(0), "duration": .number(duration),
            "intensity": values(channel.intensity), "sharpness": values(channel.sharpness),
        ]
    }

    /// Reads the body (up to the limit) as a pattern and answers with `respond`, or with 413.
    private func report(
        _ request: Request, _ context: BasicWebSocketRequestContext,
        _ respond: @Sendable (PatternReport) -> Response
    ) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxBodyBytes)
        } catch {
            return JSONResponse.error(
                .contentTooLarge, code: "too_large", message: "the pattern is larger than \(limits.maxBodyBytes) bytes")
        }
        let name = request.uri.queryParameters["name"].map(String.init) ?? "pattern"
        let strict = request.uri.queryParameters["strict"] == "true"
        return respond(PatternReport(text: Data(buffer: body), name: name, strict: strict))
    }
}
