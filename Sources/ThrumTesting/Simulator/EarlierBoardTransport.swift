import ThrumTransport
import ThrumWire

/// The host's end of a line to a board that announces an earlier message set: every INFO that
/// comes in says `minor` (1: a 1.1 board, which knows no channel sets, channel names or clock
/// trim), so a test sees what a host does with such a board. Frames are decoded and encoded again;
/// nothing else changes.
public final class EarlierBoardTransport: ByteTransport, Sendable {
    private let wrapped: any ByteTransport
    private let minor: UInt8
    private let decoder = Locked(FrameDecoder())

    public init(wrapping transport: any ByteTransport, minor: UInt8) {
        wrapped = transport
        self.minor = minor
    }

    public var name: String { wrapped.name }

    public func read() async throws -> [UInt8] {
        while true {
            let bytes = try await wrapped.read()
            let outputs = decoder.withLock { $0.feed(bytes) }
            var out: [UInt8] = []
            for case .frame(var frame) in outputs {
                // INFO: nonce (4 bytes), major, minor.
                if frame.header.type == MessageType.info.rawValue, frame.payload.count > 5 { frame.payload[5] = minor }
                out += FrameEncoder.encode(frame)
            }
            if !out.isEmpty { return out }
        }
    }

    public func write(_ bytes: [UInt8]) async throws { try await wrapped.write(bytes) }

    public func close() async { await wrapped.close() }
}
