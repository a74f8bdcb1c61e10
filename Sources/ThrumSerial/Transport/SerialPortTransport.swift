import ThrumTransport

/// A serial port opened with libserialport: raw 8N1 at the chosen rate, DTR and RTS asserted,
/// one reader and one writer thread (see `PortConnection`).
///
/// libserialport refuses pseudo-terminals; ``SerialDevice/open(_:settings:)`` falls back to
/// ``TermiosTransport`` for them by itself.
public final class SerialPortTransport: ByteTransport {
    public let name: String
    private let connection: PortConnection

    /// Opens and configures the port at `path` (e.g. `/dev/ttyACM0`). Errors name the device,
    /// the libserialport function, the OS error and what to try (see ``TransportError``).
    public static func open(
        path: String, settings: SerialSettings = SerialSettings()
    ) throws(TransportError) -> SerialPortTransport {
        try open(path: path, settings: settings, calls: .live, tuning: .standard)
    }

    static func open(
        path: String, settings: SerialSettings, calls: LibSerialPortCalls, tuning: SerialPortTuning
    ) throws(TransportError) -> SerialPortTransport {
        try settings.validate(device: path)
        let opened: OpenedPort
        do {
            opened = try OpenedPort.open(path: path, settings: settings, calls: calls)
        } catch {
            throw error.transportError(device: path)
        }
        return SerialPortTransport(opened: opened, name: path, settings: settings, calls: calls, tuning: tuning)
    }

    init(
        opened: OpenedPort, name: String, settings: SerialSettings, calls: LibSerialPortCalls, tuning: SerialPortTuning
    ) {
        self.name = name
        connection = PortConnection(
            device: name, port: opened.port, events: opened.events, descriptor: opened.descriptor,
            releaseExclusive: settings.exclusive, receiveBufferSize: settings.receiveBufferSize,
            calls: calls, tuning: tuning)
    }

    deinit {
        // Dropped without close(): the threads leave and release the port anyway.
        connection.beginClosing()
    }

    public func read() async throws -> [UInt8] {
        try await connection.read()
    }

    public func write(_ bytes: [UInt8]) async throws {
        try await connection.write(bytes)
    }

    /// Closes the port; returns once both threads left and the port is closed, so the device
    /// can be opened again at once.
    public func close() async {
        await connection.close()
    }
}
