import ArgumentParser
import Foundation
import Thrum
import ThrumSerial
import ThrumWire

/// `thrum ports [--json]`
struct PortsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ports",
        abstract: "List serial ports with their USB identity; mark those where a Thrum board answers.",
        discussion: """
            Each port is opened and sent a handshake (1.5 s at most, all ports at once); a port that is \
            busy or not permitted is listed with the reason. Pseudo-terminals (thrum sim --pty) are \
            never listed: the kernel does not register them as serial ports.
            """
    )

    @Flag(help: "Print one JSON array instead of text.")
    var json = false

    @Flag(help: "Only list the ports; do not open them to look for boards.")
    var noProbe = false

    func run() async throws {
        let ports: [SerialPortInfo]
        do { ports = try SerialPorts.list() } catch { throw failure("cannot list serial ports: \(error)") }
        let probes = noProbe ? [:] : await Self.probe(ports.map(\.path)) { try await HapticEngine.probe(.path($0)) }
        if json {
            let objects = ports.map { port -> [String: Any] in
                var object: [String: Any] = [
                    "path": port.path, "description": port.displayName, "transport": port.transport.rawValue,
                ]
                if let usb = port.usb {
                    object["usb"] = [
                        "vendorID": String(format: "%04x", usb.vendorID),
                        "productID": String(format: "%04x", usb.productID),
                        "manufacturer": usb.manufacturer ?? "", "product": usb.product ?? "",
                        "serialNumber": usb.serialNumber ?? "",
                    ]
                    object["address"] = port.usbAddress?.description
                }
                if let known = port.knownDevice { object["known"] = known }
                switch probes[port.path] {
                case .success(let capabilities?)?:
                    object["board"] = [
                        "name": capabilities.boardName, "firmware": capabilities.firmware,
                        "serial": capabilities.serialNumber,
                    ]
                case .failure(let error)?: object["error"] = "\(error)"
                default: break
                }
                return object
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
            Console.current.line(String(decoding: data, as: UTF8.self))
            return
        }
        guard !ports.isEmpty else {
            Console.current.line(
                "no serial ports (a board on USB shows up as /dev/ttyACM* or /dev/ttyUSB*; `thrum sim --pty` makes a simulated one)"
            )
            return
        }
        for port in ports {
            var line = "\(port.path)  \(port.displayName)"
            if let address = port.usbAddress { line += "  \(address)" }
            if let known = port.knownDevice { line += "  [\(known)]" }
            switch probes[port.path] {
            case .success(let capabilities?)?:
                line += "  ← Thrum board: \(capabilities.boardName), \(capabilities.firmware)"
            case .failure(let error)?: line += "  (not probed: \(error))"
            default: break
            }
            Console.current.line(line)
        }
    }

    typealias ProbeOutcome = Result<BoardCapabilities?, any Error>

    /// Probes every path at once with `probe`; what each gave, by path.
    static func probe(
        _ paths: [String], with probe: @escaping @Sendable (String) async throws -> BoardCapabilities?
    ) async -> [String: ProbeOutcome] {
        await withTaskGroup(of: (String, ProbeOutcome).self) { group in
            for path in paths {
                group.addTask { (path, await outcome(of: { try await probe(path) })) }
            }
            var outcomes: [String: ProbeOutcome] = [:]
            for await (path, outcome) in group { outcomes[path] = outcome }
            return outcomes
        }
    }

    /// `work`'s value or error. Kept out of the task group's child on purpose: Swift 6.3.1 with
    /// optimisation miscompiles a child written `do { return (path, .success(try await …)) } catch
    /// { return (path, .failure(error)) }` — the group then yields no result, or one that was never
    /// written (`thrum ports` crashed hashing a garbage path after probing a silent port).
    private static func outcome(of work: () async throws -> BoardCapabilities?) async -> ProbeOutcome {
        let outcome: ProbeOutcome
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        return outcome
    }
}
