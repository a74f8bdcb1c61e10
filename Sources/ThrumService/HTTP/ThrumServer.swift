import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ThrumTransport

#if canImport(Glibc)
import Glibc
#endif

/// `thrum serve`: the hub behind HTTP and one WebSocket per client (Protocol/SERVICE.md). Build it,
/// then ``run(onListening:)`` until SIGINT or SIGTERM; the boards stop cleanly after.
public struct ThrumServer: Sendable {
    public let hub: ServiceHub
    public let configuration: ServiceConfiguration
    let logger: Logger

    public init(hub: ServiceHub, configuration: ServiceConfiguration, logger: Logger? = nil) {
        self.hub = hub
        self.configuration = configuration
        self.logger = logger ?? Logger(label: "thrum.service")
    }

    /// Starts the boards, listens, calls `onListening` with the URL once the port is bound, serves
    /// until SIGINT or SIGTERM (or, with `stopOnSignals` false, until the task is cancelled), then
    /// stops the boards.
    public func run(stopOnSignals: Bool = true, onListening: @escaping @Sendable (URL) -> Void) async throws {
        try configuration.validate()
        try await hub.start()
        if let watch = configuration.watch { await hub.watch(watch) }
        do {
            try await makeApplication(onListening: onListening).runService(
                gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [])
        } catch is CancellationError {
            // SIGINT or SIGTERM while a socket was still closing: the shutdown cut it short, as asked.
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            await hub.stop()
            throw ServiceConfigurationError(
                "port \(configuration.port) on \(configuration.host) is in use (another thrum serve?): choose another with --port, or --port 0 for a free one"
            )
        } catch {
            await hub.stop()
            throw error
        }
        await hub.stop()
    }

    /// The application, for `run` and for tests (HummingbirdTesting), which bind port 0.
    public func makeApplication(
        onListening: @escaping @Sendable (URL) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        // With `--port 0` the port is known only once bound: the guard learns it then.
        let requestGuard = Locked(
            RequestGuard(
                bindHost: configuration.host, port: configuration.port, token: configuration.token,
                allowedOrigins: configuration.allowedOrigins))
        let router = makeRouter(currentGuard: { requestGuard.withLock { $0 } })
        let limits = configuration.limits
        let host = configuration.host
        let token = configuration.token
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: .init(ws: WebSocketServerConfiguration(maxFrameSize: limits.maxFrameBytes))),
            configuration: ApplicationConfiguration(
                address: .hostname(host, port: configuration.port), serverName: "thrum"),
            onServerRunning: { channel in
                let bound = requestGuard.withLock { guarding in
                    guarding.port = channel.localAddress?.port ?? guarding.port
                    return guarding.port
                }
                let shown = host.contains(":") ? "[\(host)]" : host
                var text = "http://\(shown):\(bound)/"
                if let token { text += "?token=\(token)" }
                onListening(URL(string: text)!)
            },
            logger: logger)
    }

    /// Every route, behind the guard `currentGuard` gives (read per request: its port is set once
    /// the service is bound).
    func makeRouter(currentGuard: @escaping @Sendable () -> RequestGuard) -> Router<BasicWebSocketRequestContext> {
        // HEAD answers as GET does, without the body (curl -I, link checkers).
        let router = Router(context: BasicWebSocketRequestContext.self, options: .autoGenerateHeadEndpoints)
        let configuration = configuration
        router.add(middleware: GuardMiddleware(makeGuard: currentGuard))
        WebRoutes.add(to: router)
        ExampleRoutes.add(to: router)
        APIRoutes(hub: hub, limits: configuration.limits).add(to: router)
        ConvertRoutes(limits: configuration.limits).add(to: router)
        let connections = WebSocketConnections(hub: hub, limits: configuration.limits)
        router.ws("/ws") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            try await connections.serve(inbound: inbound, outbound: outbound)
        }
        return router
    }
}
