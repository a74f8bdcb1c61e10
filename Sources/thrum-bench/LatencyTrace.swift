import Foundation
import ThrumTesting
import ThrumTransport
import ThrumWire

/// Diagnostics for `thrum-bench latency` (`THRUM_LATENCY_TRACE=1`): a transport wrapper that
/// stamps every chunk with the manual clock's reading, so each real-time update's path can be
/// followed (host call → transport write → the board's reader → rendered tick).
final class StampLog: Sendable {
    struct Stamp: Sendable {
        var virtual: Double
        var wall: Double
        var bytes: [UInt8]
    }
    private let stamps = Locked<[Stamp]>([])
    var all: [Stamp] { stamps.withLock { $0 } }
    func add(_ stamp: Stamp) { stamps.withLock { $0.append(stamp) } }

    /// Every RT_PARAM intensity value carried by the logged chunks, with the time of the chunk
    /// that completed its frame.
    func realtimeValues() -> [(virtual: Double, value: Int16)] {
        var decoder = FrameDecoder()
        var found: [(Double, Int16)] = []
        for stamp in all {
            for output in decoder.feed(stamp.bytes) {
                guard case .frame(let frame) = output, let message = try? MessageCodec.decode(frame),
                    case .rtParam(let update) = message
                else { continue }
                found.append((stamp.virtual, update.value))
            }
        }
        return found
    }

    /// Every RT_PARAM intensity value carried by the logged chunks, with the time its frame's last
    /// byte reaches the board when the chunks go on a line of `byteSeconds` a byte at their
    /// stamp, one after the other (the simulator's line model, replayed).
    func lineArrivals(byteSeconds: Double) -> [(virtual: Double, value: Int16)] {
        var decoder = FrameDecoder()
        var found: [(Double, Int16)] = []
        var lineFree = 0.0
        for stamp in all {
            var onLine = max(lineFree, stamp.virtual)
            for byte in stamp.bytes {
                onLine += byteSeconds
                guard let output = decoder.feed(byte), case .frame(let frame) = output,
                    let message = try? MessageCodec.decode(frame), case .rtParam(let update) = message
                else { continue }
                found.append((onLine, update.value))
            }
            lineFree = onLine
        }
        return found
    }

    /// Every frame's message type name, with the chunk's time.
    func frames() -> [(virtual: Double, name: String, bytes: Int)] {
        var decoder = FrameDecoder()
        var found: [(Double, String, Int)] = []
        for stamp in all {
            for output in decoder.feed(stamp.bytes) {
                guard case .frame(let frame) = output else { continue }
                let name = (try? MessageCodec.decode(frame)).map { "\($0.type.name)" } ?? "?"
                found.append(
                    (
                        stamp.virtual, "\(frame.header.channel) \(name)",
                        FrameLimits.maxWireCount(payload: frame.payload.count)
                    ))
            }
        }
        return found
    }
}

struct StampingTransport: ByteTransport {
    let base: any ByteTransport
    let clock: ManualClock
    let writes: StampLog?
    let reads: StampLog?
    var name: String { base.name }

    func read() async throws -> [UInt8] {
        let bytes = try await base.read()
        reads?.add(.init(virtual: clock.now.offset.secondsDouble, wall: Self.wall(), bytes: bytes))
        return bytes
    }

    func write(_ bytes: [UInt8]) async throws {
        writes?.add(.init(virtual: clock.now.offset.secondsDouble, wall: Self.wall(), bytes: bytes))
        try await base.write(bytes)
    }

    func close() async { await base.close() }

    static func wall() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
