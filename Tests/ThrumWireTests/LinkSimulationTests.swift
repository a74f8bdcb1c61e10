import Testing
import ThrumTesting

@testable import ThrumWire

/// Whole-link behaviour over the virtual line: resets, realtime, ERROR round trips.
@Suite("Link over the virtual line")
struct LinkSimulationTests {
    @Test("a board reset mid-transfer is reported at once and the host reconnects in the new epoch")
    func boardResetMidTransfer() throws {
        var simulation = LinkTransferTests.simulation(seed: 77, faults: .none)
        simulation.connect()
        simulation.run(until: .zero + .seconds(1)) { $0.host.isEstablished }
        let firstEpoch = simulation.host.epoch
        let data = LinkTransferTests.payload(size: 20_000, seed: 3)
        for message in LinkTransferTests.chunks(of: data, maxPayload: simulation.host.peerMaxPayload) {
            try simulation.hostSend(message)
        }
        simulation.run(until: simulation.now + .milliseconds(30))
        let resetAt = simulation.now
        // A power cycle.
        simulation.board = LinkSession(configuration: LinkSimulation.boardConfiguration(bootEpoch: 0x7000))
        _ = simulation.takeHostEvents()
        var events: [LinkEvent] = []
        simulation.run(until: resetAt + .seconds(2)) { sim in
            events.append(contentsOf: sim.takeHostEvents())
            return events.contains { if case .connected = $0 { true } else { false } }
        }
        let reset = events.first { if case .peerReset = $0 { true } else { false } }
        guard case .peerReset(let previous, let new, let discarded)? = reset else {
            Issue.record("no peer reset reported: \(events)")
            return
        }
        #expect(previous == firstEpoch)
        #expect(new == 0x7000)
        #expect(discarded > 0)
        #expect(simulation.host.isEstablished)
        #expect(simulation.host.epoch == 0x7001)
        #expect(
            simulation.now.duration(since: resetAt) < .milliseconds(300),
            "learned within a ping interval plus a handshake")
    }

    @Test("realtime updates arrive newest-first without retransmission; lost ones are not repeated")
    func realtime() throws {
        var simulation = LinkTransferTests.simulation(
            seed: 5, faults: VirtualLine.Faults(dropRate: 0.2, duplicateRate: 0.2))
        simulation.connect()
        simulation.run(until: .zero + .seconds(2)) { $0.host.isEstablished }
        #expect(simulation.host.isEstablished)
        for value in 0..<200 {
            try simulation.hostSend(.rtParam(player: 0, parameter: .intensityControl, value: Int16(value)))
            simulation.run(until: simulation.now + .milliseconds(2))
        }
        simulation.run(until: simulation.now + .milliseconds(50))
        let values = simulation.takeBoardReceived().filter { $0.channel == .realtime }.compactMap { message -> Int16? in
            if case .rtParam(let update) = message.message { update.value } else { nil }
        }
        #expect(
            values == values.sorted() && Set(values).count == values.count,
            "strictly increasing: no stale or duplicate update")
        #expect(values.count < 200 && values.count > 120)
        #expect(simulation.host.statistics.retransmissions == 0)
    }

    @Test("the board end answers an unknown type with ERROR and the host sees it")
    func errorRoundTrip() throws {
        var simulation = LinkTransferTests.simulation(seed: 8, faults: .none)
        simulation.connect()
        simulation.run(until: .zero + .seconds(1)) { $0.host.isEstablished }
        // A host frame with an unassigned type, sent raw into the line.
        let header = FrameHeader(channel: .control, epoch: simulation.host.epoch, window: 16, type: 0x0B)
        simulation.toBoard.write(FrameEncoder.encode(header: header, payload: [9, 9]), at: simulation.now)
        var errors: [WireMessage] = []
        simulation.run(until: simulation.now + .milliseconds(50)) { sim in
            for event in sim.takeHostEvents() {
                if case .received(let message, _) = event, message.type == .error { errors.append(message) }
            }
            return !errors.isEmpty
        }
        guard case .error(let report)? = errors.first else {
            Issue.record("no ERROR")
            return
        }
        #expect(report.refType == 0x0B)
        #expect(report.status == .unknownMessage)
    }
}
