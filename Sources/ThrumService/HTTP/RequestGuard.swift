import Foundation

/// The checks every request passes before anything else runs (Protocol/SERVICE.md §9, "Security
/// model"): the Host header against DNS rebinding, the Origin against foreign web pages, and the
/// token where one is set. Pure, so each rule is tested on its own.
public struct RequestGuard: Sendable {
    /// The address the service listens on (`127.0.0.1`, `::1`, `localhost`, `0.0.0.0`, …).
    public var bindHost: String
    public var port: Int
    public var token: String?
    /// Origins allowed besides the service's own (`--allow-origin`), as `scheme://host[:port]`.
    public var allowedOrigins: Set<String>

    public init(bindHost: String, port: Int, token: String?, allowedOrigins: [String] = []) {
        self.bindHost = bindHost
        self.port = port
        self.token = token
        self.allowedOrigins = Set(allowedOrigins.map(RequestGuard.normalizedOrigin))
    }

    public enum Verdict: Sendable, Equatable {
        case allow
        /// Refused with HTTP `status` (400, 401, 403) for `reason`, which the response body states.
        case refuse(status: Int, reason: String)
    }

    /// Whether `host` names a loopback interface (the only binding allowed without a token).
    public static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }

    public var isLoopbackOnly: Bool { Self.isLoopback(bindHost) }

    /// The names a loopback request may give as its Host: loopback names and the bound address.
    public var ownHostNames: Set<String> {
        let bare = bindHost.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return ["127.0.0.1", "localhost", "[::1]", bare.contains(":") ? "[\(bare)]" : bare]
    }

    /// The service's own web origins: its names with its port.
    public var ownOrigins: Set<String> { Set(ownHostNames.map { "http://\($0):\(port)" }) }

    /// `[::1]:7878` → `[::1]`, `localhost:7878` → `localhost`: the name part of a Host header.
    static func hostName(_ host: String) -> String {
        let lower = host.lowercased()
        if lower.hasPrefix("[") { return lower.split(separator: "]").first.map { $0 + "]" } ?? lower }
        return lower.split(separator: ":").first.map(String.init) ?? lower
    }

    /// Checks one request. `needsToken`: the API and the WebSocket (the web page's static files
    /// carry no secret and need none). `presentedToken`: from `Authorization: Bearer` or `?token=`.
    public func check(host: String?, origin: String?, presentedToken: String?, needsToken: Bool) -> Verdict {
        // DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1 still sends
        // `Host: evil.example`. Bound beyond loopback the token guards instead, as clients may use
        // any of the machine's names.
        guard let host, !host.isEmpty else { return .refuse(status: 400, reason: "the request has no Host header") }
        if isLoopbackOnly, !ownHostNames.contains(Self.hostName(host)) {
            return .refuse(
                status: 403,
                reason: "Host `\(host)` is not this service's (DNS rebinding protection): use http://127.0.0.1:\(port)")
        }
        // A browser always names the page's origin (http or https, or `null`); only the service's
        // own pages and the origins the user allowed get through. No Origin, or a ws: one (which
        // WebSocket libraries send, and browsers never do): a program, not a web page.
        if let origin, !Self.isProgramOrigin(origin) {
            let normalized = Self.normalizedOrigin(origin)
            let sameHost = isLoopbackOnly ? [] : ["http://\(host.lowercased())"]
            guard
                ownOrigins.contains(normalized) || sameHost.contains(normalized) || allowedOrigins.contains(normalized)
            else {
                return .refuse(
                    status: 403,
                    reason:
                        "Origin `\(origin)` may not use this service: start it with --allow-origin \(origin) to allow it"
                )
            }
        }
        if needsToken, let token {
            guard let presentedToken, Self.constantTimeEqual(presentedToken, token) else {
                return .refuse(
                    status: 401,
                    reason: presentedToken == nil
                        ? "this service needs its token: `Authorization: Bearer TOKEN` or `?token=TOKEN`"
                        : "wrong token")
            }
        }
        return .allow
    }

    /// `ws://…` and `wss://…`: what WebSocket client libraries put in Origin; never a browser page's.
    static func isProgramOrigin(_ origin: String) -> Bool {
        let lower = origin.lowercased()
        return lower.hasPrefix("ws://") || lower.hasPrefix("wss://")
    }

    /// `HTTP://LocalHost:80/` → `http://localhost:80`: origins compare without case or a trailing slash.
    static func normalizedOrigin(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Compares without an early exit, so the time taken does not tell how much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
