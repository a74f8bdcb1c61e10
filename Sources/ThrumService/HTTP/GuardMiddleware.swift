import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// Puts every request, the WebSocket upgrade included, through ``RequestGuard`` first: a refused
/// request gets its status and a JSON body that says why, and nothing behind it runs.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = BasicWebSocketRequestContext
    /// The guard as it stands (its port is known once the service is bound).
    let makeGuard: @Sendable () -> RequestGuard

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let needsToken = path.hasPrefix("/api/") || path == "/ws"
        let origin = request.headers[.origin]
        let verdict = makeGuard().check(
            host: request.head.authority, origin: origin, presentedToken: Self.presentedToken(request),
            needsToken: needsToken)
        if case .refuse(let status, let reason) = verdict {
            return JSONResponse.error(
                HTTPResponse.Status(code: status), code: status == 401 ? "unauthorized" : "forbidden", message: reason)
        }
        // A page from an allowed origin may read the API's answers (CORS); preflights end here.
        var response: Response
        if request.method == .options {
            response = Response(status: .noContent)
            response.headers[.accessControlAllowMethods] = "GET, POST"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type"
        } else {
            response = try await next(request, context)
        }
        if let origin { response.headers[.accessControlAllowOrigin] = origin }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    /// `Authorization: Bearer T`, else `?token=T` (a browser's WebSocket cannot set headers).
    static func presentedToken(_ request: Request) -> String? {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            return String(header.dropFirst("Bearer ".count))
        }
        return request.uri.queryParameters["token"].map(String.init)
    }
}

/// JSON HTTP responses with the service's encoding.
enum JSONResponse {
    static func make(status: HTTPResponse.Status = .ok, _ value: JSONValue) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(value.encoded)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer))
    }

    /// The HTTP API's error answer (Protocol/SERVICE.md §10): `{"error": {"code", "message"}}`.
    static func error(_ status: HTTPResponse.Status, code: String, message: String) -> Response {
        make(status: status, ["error": ["code": .string(code), "message": .string(message)]])
    }
}
