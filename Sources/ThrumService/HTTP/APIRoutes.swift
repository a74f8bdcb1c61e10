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

    /// Reads the body (up to the limit) as a pattern and answers with `respond`, or with 413.
    private func report(
        _ request: Request, _ context: BasicWebSocketRequestContext,
        _ respond: @Sendable (PatternReport) -> Response
    ) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limits.maxBodyBytes)
        } catch {
            return JSONResponse.make(
                status: .contentTooLarge,
                [
                    "error": [
                        "code": "too_large",
                        "message": .string("the pattern is larger than \(limits.maxBodyBytes) bytes"),
                    ]
                ])
        }
        let name = request.uri.queryParameters["name"].map(String.init) ?? "pattern"
        let strict = request.uri.queryParameters["strict"] == "true"
        return respond(PatternReport(text: Data(buffer: body), name: name, strict: strict))
    }
}
