import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket

/// The bundled example patterns, read-only (Protocol/SERVICE.md §10): `GET /api/examples` lists them,
/// `GET /api/examples/NAME` returns one's text. They are resources of the service (copies of the
/// repository's `Examples/*.ahap`, which a test keeps identical), so an installed `thrum` has them.
enum ExampleRoutes {
    static func add(to router: Router<BasicWebSocketRequestContext>) {
        router.get("/api/examples") { _, _ in
            JSONResponse.make(
                [
                    "examples": .array(
                        names().map { name in
                            ["name": .string(name), "bytes": .int(size(of: name))]
                        })
                ])
        }
        router.get("/api/examples/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard let data = text(of: name) else {
                return JSONResponse.error(.notFound, code: "not_found", message: "no example \(name)")
            }
            var buffer = ByteBuffer()
            buffer.writeBytes(data)
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: buffer)
            )
        }
    }

    static var folder: URL? { Bundle.module.url(forResource: "Examples", withExtension: nil) }

    /// The examples' file names (`slice.ahap`, …), sorted.
    static func names() -> [String] {
        guard let folder, let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
            return []
        }
        return files.filter { $0.hasSuffix(".ahap") && !$0.hasPrefix(".") }.sorted()
    }

    /// One example's size in bytes, from the file system (the list reads no file).
    static func size(of name: String) -> Int {
        guard let folder else { return 0 }
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// One example's bytes, or nil when there is no such example (only listed names are read).
    static func text(of name: String) -> Data? {
        guard let folder, names().contains(name) else { return nil }
        return try? Data(contentsOf: folder.appendingPathComponent(name))
    }
}
