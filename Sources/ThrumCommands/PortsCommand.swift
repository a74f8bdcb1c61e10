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
        let probes: [String: Result<BoardCapabilities?, any Error>] = noProbe ? [:] : await withTaskGroup(
            of: (String, Result<BoardCapabilities?, any Error>).self
        ) { group in
            for port in ports {
                group.addTask {
                    do { return (port.path, .success(try await HapticEngine.probe(.path(port.path)))) } catch { return (port.path, .failure(error)) }
                }
            }
            var results: [String: Result<BoardCapabilities?, any Error>] = [:]
            for await (path, result) in group { results[path] = result }
            return results
        }
        if json {
            let objects = ports.map { port -> [String: Any] in
                var object: [String: Any] = ["path": port.path, "description": port.displayName, "transport": port.transport.rawValue]
                if let usb = port.usb {
                    object["usb"] = [
                        "vendorID": String(format: "%04x", usb.vendorID), "productID": String(format: "%04x", usb.productID),
                        "manufacturer": usb.manufacturer ?? "", "product": usb.product ?? "", "serialNumber": usb.serialNumber ?? "",
                    ]
                    object["address"] = port.usbAddress?.description
                }
                switch probes[port.path] {
                case .success(let capabilities?)?: object["board"] = ["name": capabilities.boardName, "firmware": capabilities.firmware, "serial": capabilities.serialNumber]
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
            Console.current.line("no serial ports (a board on USB shows up as /dev/ttyACM* or /dev/ttyUSB*; `thrum sim --pty` makes a simulated one)")
            return
        }
        for port in ports {
            var line = "\(port.path)  \(port.displayName)"
            if let address = port.usbAddress { line += "  \(address)" }
            switch probes[port.path] {
            case .success(let capabilities?)?: line += "  ← Thrum board: \(capabilities.boardName), \(capabilities.firmware)"
            case .failure(let error)?: line += "  (not probed: \(error))"
            default: break
            }
            Console.current.line(line)
        }
    }
}
