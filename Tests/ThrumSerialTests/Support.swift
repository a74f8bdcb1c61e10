import ThrumTransport

@testable import ThrumSerial

/// Opens a fake port through the real open sequence and threads.
func openFake(
    _ path: String, on bus: FakeSerialBus, settings: SerialSettings = SerialSettings()
) throws -> SerialPortTransport {
    try SerialPortTransport.open(path: path, settings: settings, calls: bus.calls, tuning: .fast)
}

/// Reads exactly `count` bytes.
func read(_ count: Int, from transport: any ByteTransport) async throws -> [UInt8] {
    var received: [UInt8] = []
    while received.count < count { received += try await transport.read() }
    return received
}

/// The error `body` throws, if any.
func thrownError(_ body: () throws -> Void) -> (any Error)? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The error `body` throws, if any.
func thrownError(_ body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
