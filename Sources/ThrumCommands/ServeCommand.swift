import ArgumentParser
import Foundation
import Logging
import Thrum
import ThrumService

/// `thrum serve [--device D | --rig FILE] [--host ADDR] [--port N] [--token T] [--allow-origin O]... [--watch FILE]`
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the boards to other programs: a local HTTP and WebSocket service any language can use.",
        discussion: """
            Prints the service's URL as its first line, then serves until SIGINT or SIGTERM and stops the \
            boards cleanly. Open the URL in a browser for Thrum Studio (open, play, trace, edit and tune a \
            pattern on the board; /web/api.html describes the API); programs talk \
            JSON over the WebSocket at /ws (Protocol/SERVICE.md). Several programs may use the boards at \
            once; each owns the players it makes, and a program that disconnects has its players stopped.

            It listens on 127.0.0.1 (port \(ServiceConfiguration.defaultPort)) by default. Listening on \
            another address needs --token: every API request and WebSocket must then present it \
            (`Authorization: Bearer TOKEN` or `?token=TOKEN`). Web pages from other origins are refused \
            unless named with --allow-origin.
            """
    )

    @Option(help: "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim).")
    var device: String?

    @Option(help: "A rig file (JSON): serve its boards as one rig.")
    var rig: String?

    @Option(help: "The address to listen on (default 127.0.0.1; any other needs --token).")
    var host = "127.0.0.1"

    @Option(help: "The port (default \(ServiceConfiguration.defaultPort); 0 picks a free one).")
    var port = ServiceConfiguration.defaultPort

    @Option(help: "A secret every API request and WebSocket must present (at least 16 characters).")
    var token: String?

    @Option(
        name: .customLong("allow-origin"),
        help: ArgumentHelp("A web origin allowed to use the service, e.g. http://localhost:3000 (repeatable).")
    )
    var allowedOrigins: [String] = []

    @Option(help: "With a UART board: its baud rate, so real-time updates are paced to the line.")
    var baud: Int?

    @Option(
        help: ArgumentHelp(
            "A pattern file to watch: the studio opens it, and reloads and replays it whenever it changes on disk.",
            valueName: "file"))
    var watch: String?

    func validate() throws {
        if rig != nil, device != nil { throw ValidationError("give --device or --rig, not both") }
        if let watch, !FileManager.default.isReadableFile(atPath: watch) {
            throw ValidationError("--watch \(watch): no such file, or not readable")
        }
        do { try configurationValue.validate() } catch { throw ValidationError(error.description) }
    }

    private var configurationValue: ServiceConfiguration {
        ServiceConfiguration(host: host, port: port, token: token, allowedOrigins: allowedOrigins, watch: watch)
    }

    func run() async throws {
        let stage: any ServiceStage
        do {
            if let rig {
                stage = RigStage(rig: HapticRig(try RigConfiguration(contentsOf: URL(fileURLWithPath: rig))))
            } else {
                let address = try device.map { try DeviceAddress(parsing: $0) } ?? DeviceAddress.default
                stage = EngineStage(engine: try HapticEngine(device: address, lineRate: baud))
            }
        } catch {
            throw failure("\(error)")
        }
        let console = Console.current
        let server = ThrumServer(hub: ServiceHub(stage: stage), configuration: configurationValue)
        do {
            try await server.run { url in console.line(url.absoluteString) }
        } catch {
            throw failure("serve: \(error)")
        }
    }
}
