/// Where and how `thrum serve` listens (Protocol/SERVICE.md §2).
public struct ServiceConfiguration: Sendable {
    /// The port the README names; `thrum serve --port 0` picks a free one.
    public static let defaultPort = 7878

    public var host = "127.0.0.1"
    public var port = ServiceConfiguration.defaultPort
    /// Required on the API and the WebSocket when set; required to bind beyond loopback.
    public var token: String?
    /// Web origins allowed besides the service's own pages.
    public var allowedOrigins: [String] = []
    public var limits = ServiceLimits()
    /// `--watch FILE`: a pattern file whose changes go to every client (`pattern.changed`).
    public var watch: String?

    public init(
        host: String = "127.0.0.1", port: Int = ServiceConfiguration.defaultPort, token: String? = nil,
        allowedOrigins: [String] = [], limits: ServiceLimits = ServiceLimits(), watch: String? = nil
    ) {
        self.watch = watch
        self.host = host
        self.port = port
        self.token = token
        self.allowedOrigins = allowedOrigins
        self.limits = limits
    }

    /// Refuses what the security model forbids (§9): a non-loopback address without a token, an
    /// empty token.
    public func validate() throws(ServiceConfigurationError) {
        if let token, token.count < 16 {
            throw ServiceConfigurationError("a token must have at least 16 characters (it guards the boards)")
        }
        if !RequestGuard.isLoopback(host), token == nil {
            throw ServiceConfigurationError(
                "listening on \(host) lets other machines reach the boards: give a --token too (at least 16 characters)"
            )
        }
        guard (0...65535).contains(port) else { throw ServiceConfigurationError("port \(port) is not 0…65535") }
    }
}

public struct ServiceConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
