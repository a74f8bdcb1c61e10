import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// The web pages the service serves from its resources (`Sources/ThrumService/Web`), so that
/// `thrum serve` works from any folder: `/` is the page, `/web/…` its modules and styles.
enum WebRoutes {
    static let contentTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "json": "application/json",
    ]

    static func add(to router: Router<BasicWebSocketRequestContext>) {
        router.get("/") { _, _ in file("index.html") }
        router.get("/web/**") { request, _ in
            let name = String(request.uri.path.dropFirst("/web/".count))
            return file(name)
        }
    }

    /// One file of the Web folder; 404 for anything else (no `..`, no hidden files).
    static func file(_ name: String) -> Response {
        let parts = name.split(separator: "/")
        guard !parts.isEmpty, parts.allSatisfy({ !$0.hasPrefix(".") }),
            let folder = Bundle.module.url(forResource: "Web", withExtension: nil),
            let data = try? Data(contentsOf: folder.appendingPathComponent(name))
        else {
            return JSONResponse.error(.notFound, code: "not_found", message: "no page /web/\(name)")
        }
        let type = contentTypes[(name as NSString).pathExtension] ?? "application/octet-stream"
        var buffer = ByteBuffer()
        buffer.writeBytes(data)
        return Response(
            status: .ok,
            headers: [
                .contentType: type,
                // The pages load only what the service serves: nothing from elsewhere, no framing.
                // blob: is the page's own: a saved file's download, the studio's converted sound.
                .contentSecurityPolicy:
                    "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; frame-ancestors 'none'",
            ],
            body: .init(byteBuffer: buffer))
    }
}
