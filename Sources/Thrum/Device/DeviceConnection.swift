import Foundation
import ThrumSerial
import ThrumSimulator
import ThrumTransport

/// An opened device: the transport to the board and, for the embedded simulator, the task that
/// runs the simulated board.
struct DeviceConnection: Sendable {
    var transport: any ByteTransport
    var simulator: Task<Void, Never>?

    /// Opens `address`. The embedded simulator runs on the engine's `clock` (a test's clock moves
    /// only when the test moves it); its flash lives in `flashFile` when given (so slots outlast the
    /// process).
    static func open(
        _ address: DeviceAddress, simulator configuration: BoardConfiguration, flashFile: URL?, clock: any EngineClock
    ) throws -> DeviceConnection {
        switch address {
        case .simulator:
            var configuration = configuration
            // An in-process board cannot lose its host; in real time its keep-alive would only trip
            // when the whole process stalls (a busy machine), which no board on a wire would see. The
            // longest the wire can state (0 is not a keep-alive INFO may carry).
            if !clock.isManual { configuration.keepAliveMilliseconds = 65_535 }
            let (host, server) = try SimulatorServer.inProcess(configuration: configuration, flashFile: flashFile)
            let task = Task<Void, Never> {
                do { try await clock.serve(server) } catch {}  // the simulator ends when the engine closes its end
            }
            return DeviceConnection(transport: host, simulator: task)
        case .path, .usb:
            do {
                return DeviceConnection(transport: try SerialDevice.open(address.description).transport, simulator: nil)
            } catch {
                throw HapticEngineError.openFailed(device: address.description, cause: .init(error))
            }
        }
    }
}
