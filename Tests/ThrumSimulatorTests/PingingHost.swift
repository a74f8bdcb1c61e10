import ThrumSimulator
import ThrumTesting
import ThrumTransport
import ThrumWire

/// A host on the in-process pipe of a `SimulatorServer` that runs on a manual clock: it connects
/// and pings without moving the clock, so the board stamps its PONG with its own clock at exactly
/// the host's instant.
struct PingingHost {
    let transport: any ByteTransport
    let clock: ManualClock
    private var session = LinkSession(configuration: LinkConfiguration(role: .host))
    private var decoder = FrameDecoder()
    private var pingID: UInt16 = 0

    init(transport: any ByteTransport, clock: ManualClock) {
        self.transport = transport
        self.clock = clock
    }

    var now: MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(clock.now.offset.nanosecondsClamped)) }

    /// HELLO until INFO.
    mutating func connect() async throws {
        session.connect(at: now)
        while true {
            for frame in session.takeFrames() { try await transport.write(frame) }
            session.receive(try await transport.read(), at: now)
            if session.takeEvents().contains(where: { if case .connected = $0 { true } else { false } }) { return }
        }
    }

    /// Sends a PING now and returns the board's PONG (the session would keep it for clock sync).
    mutating func ping() async throws -> WireMessage.Pong {
        pingID &+= 1
        let hostTime = UInt32(truncatingIfNeeded: now.nanoseconds / 1000)
        try session.send(.ping(id: pingID, hostTime: hostTime, reserved0: 0, reserved1: 0), at: now)
        for frame in session.takeFrames() { try await transport.write(frame) }
        while true {
            for case .frame(let frame) in decoder.feed(try await transport.read()) {
                if case .pong(let pong)? = try? MessageCodec.decode(frame), pong.id == pingID { return pong }
            }
        }
    }
}
