import ThrumTesting

@testable import ThrumTransport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair as two termios transports: the controller, and the device side
/// opened by path as a client would.
func makePseudoTerminalPair() throws -> (any ByteTransport, any ByteTransport) {
    let pty = try PseudoTerminal.open()
    let device = try TermiosTransport.open(path: pty.devicePath)
    return (pty.controller, device)
}

/// Reads exactly `count` bytes.
func read(_ count: Int, from transport: any ByteTransport) async throws -> [UInt8] {
    try await TransportConformance.readCount(count, from: transport)
}
