import PropertyBased
import Testing
import ThrumTesting

@testable import ThrumWire

/// The host's reliable sender chooses its payload size from what the line does to its frames (PROTOCOL.md §6.5).
@Suite("Adaptive payload size")
struct AdaptivePayloadTests {
    // MARK: the estimator alone

    @Test("the best payload follows the per-byte error rate: the maximum on a clean line, about 30 bytes at 1 %")
    func bestPayload() {
        #expect(AdaptivePayloadSize.bestPayload(byteErrorRate: 0, maximum: 1024) == 1024)
        #expect((28...34).contains(AdaptivePayloadSize.bestPayload(byteErrorRate: 0.01, maximum: 1024)))
        #expect((100...130).contains(AdaptivePayloadSize.bestPayload(byteErrorRate: 0.001, maximum: 1024)))
        #expect(AdaptivePayloadSize.bestPayload(byteErrorRate: 0.3, maximum: 1024) == AdaptivePayloadSize.floor)
        #expect(AdaptivePayloadSize.bestPayload(byteErrorRate: 0.01, maximum: 16) == 16)
    }

    @Test("starts small, reaches the negotiated maximum after a few clean deliveries and never passes it")
    func rampsToMaximum() {
        var size = AdaptivePayloadSize(maximum: 700)
        #expect(size.limit < 700)
        for _ in 0..<24 { size.recordDelivered(payload: size.limit) }
        #expect(size.limit == 700)
        for _ in 0..<100 { size.recordDelivered(payload: size.limit) }
        #expect(size.limit == 700)
    }

    @Test("frames lost at the rate 1 % byte errors cause shrink the limit; a clean line brings it back")
    func shrinksAndRegrows() {
        var size = AdaptivePayloadSize(maximum: 1024)
        var rng = SplitMix64(seed: 5)
        for _ in 0..<400 {
            let survives = rng.unit() < pow(0.99, Double(size.limit + AdaptivePayloadSize.frameOverhead))
            if survives { size.recordDelivered(payload: size.limit) } else { size.recordLost(payload: size.limit) }
        }
        #expect((20...70).contains(size.limit), "limit \(size.limit)")
        #expect((0.004...0.02).contains(size.byteErrorRate), "estimate \(size.byteErrorRate)")
        #expect(size.isShrunk)
        var deliveries = 0
        while size.limit < 1024 && deliveries < 1000 {
            size.recordDelivered(payload: size.limit)
            deliveries += 1
        }
        #expect(size.limit == 1024, "regrown after \(deliveries) clean deliveries")
        #expect(deliveries < 300)
    }

    @Test("frames dropped whatever their size (5 %) do not shrink the limit")
    func sizeIndependentLossKeepsFullSize() {
        var size = AdaptivePayloadSize(maximum: 1024)
        var rng = SplitMix64(seed: 9)
        for _ in 0..<500 {
            if rng.chance(0.05) {
                size.recordLost(payload: size.limit)
            } else {
                size.recordDelivered(payload: size.limit)
            }
        }
        #expect(size.limit == 1024)
    }

    @Test("whatever it observes, the limit stays between the floor and the negotiated maximum")
    func boundsHold() async {
        await propertyCheck(
            count: 200, input: Gen.int(in: 1...1024), Gen.bool.array(of: 0...300), Gen.int(in: 0...1024)
        ) { maximum, outcomes, payload in
            var size = AdaptivePayloadSize(maximum: maximum)
            for delivered in outcomes {
                if delivered { size.recordDelivered(payload: payload) } else { size.recordLost(payload: payload) }
                #expect(size.limit <= maximum)
                #expect(size.limit >= min(AdaptivePayloadSize.floor, maximum))
            }
        }
    }

    // MARK: the sender over a virtual line

    /// Per-byte corruption only (no frame faults), so the test measures the size choice and stays short.
    static func noisy(_ rate: Double) -> VirtualLine.Faults {
        var faults = VirtualLine.Faults.none
        faults.byteCorruptionRate = rate
        return faults
    }

    /// Sends `data` as UPLOAD_CHUNK messages cut as they are queued, each as large as the host's
    /// `preferredPayload` at that moment; returns what arrived and the largest chunk payload sent.
    static func adaptiveTransfer(
        _ data: [UInt8], in simulation: inout LinkSimulation, limit: Duration
    ) throws -> (arrived: [UInt8], largestPayload: Int) {
        var queued = 0
        var tag = 0
        var largest = 0
        var arrived: [UInt8] = []
        var failure: (any Error)?
        func queue(_ sim: inout LinkSimulation) {
            while queued < data.count && sim.host.pendingReliable < 8 {
                let payload = sim.host.preferredPayload
                largest = max(largest, payload)
                let end = min(data.count, queued + payload - 7)
                do {
                    try sim.hostSend(
                        .uploadChunk(
                            tag: UInt16(truncatingIfNeeded: tag), handle: 0, offset: UInt32(queued),
                            data: Array(data[queued..<end])))
                } catch {
                    failure = error
                    return
                }
                queued = end
                tag += 1
            }
        }
        queue(&simulation)
        simulation.run(until: simulation.now + limit) { sim in
            for (message, _) in sim.takeBoardReceived() { arrived.append(contentsOf: message.chunkData ?? []) }
            queue(&sim)
            return arrived.count >= data.count || failure != nil
        }
        if let failure { throw failure }
        return (arrived, largest)
    }

    static func connected(seed: UInt64, faults: VirtualLine.Faults) -> LinkSimulation {
        var simulation = LinkTransferTests.simulation(seed: seed, faults: faults)
        simulation.connect()
        simulation.run(until: simulation.now + .seconds(30)) { $0.host.isEstablished }
        return simulation
    }

    @Test("under 1 % per-byte corruption the sender shrinks its payloads; the data arrives bit-exact (seeds)")
    func shrinksUnderCorruption() async {
        await propertyCheck(count: 3, input: Gen.int(in: 0...1_000_000)) { seed in
            let data = LinkTransferTests.payload(size: 6000, seed: UInt64(seed))
            var simulation = Self.connected(seed: UInt64(seed), faults: Self.noisy(0.01))
            #expect(simulation.host.isEstablished, "seed \(seed)")
            let (arrived, largest) = try Self.adaptiveTransfer(data, in: &simulation, limit: .seconds(600))
            #expect(arrived == data, "seed \(seed): \(arrived.count) of \(data.count) bytes")
            #expect(simulation.host.preferredPayload <= 80, "seed \(seed): \(simulation.host.preferredPayload)")
            #expect(largest <= simulation.host.peerMaxPayload)
            #expect(!simulation.hostEvents.contains { if case .failed = $0 { true } else { false } })
        }
    }

    @Test("when the line turns clean the payload grows back to the negotiated maximum, never beyond")
    func regrowsOnCleanLine() throws {
        var simulation = Self.connected(seed: 42, faults: Self.noisy(0.01))
        let noisyData = LinkTransferTests.payload(size: 3000, seed: 1)
        let first = try Self.adaptiveTransfer(noisyData, in: &simulation, limit: .seconds(600))
        #expect(first.arrived == noisyData)
        #expect(simulation.host.preferredPayload < 100)
        simulation.toBoard.faults = .none
        simulation.toHost.faults = .none
        let cleanData = LinkTransferTests.payload(size: 60000, seed: 2)
        let second = try Self.adaptiveTransfer(cleanData, in: &simulation, limit: .seconds(60))
        #expect(second.arrived == cleanData)
        #expect(simulation.host.preferredPayload == simulation.host.peerMaxPayload)
        #expect(second.largestPayload == simulation.host.peerMaxPayload)
    }

    @Test("on a clean line the first frames are small but the sender reaches full size at once, with no resend")
    func cleanLineUsesFullSize() throws {
        var simulation = Self.connected(seed: 3, faults: .none)
        let data = LinkTransferTests.payload(size: 20000, seed: 3)
        let result = try Self.adaptiveTransfer(data, in: &simulation, limit: .seconds(30))
        #expect(result.arrived == data)
        #expect(result.largestPayload == simulation.host.peerMaxPayload)
        #expect(simulation.host.statistics.retransmissions == 0)
    }

    @Test("a timeline upload cuts its chunks to the payload limit it is given")
    func uploadFollowsLimit() {
        var upload = TimelineUpload(bytes: Array(repeating: 7, count: 500), maxPayload: 256, firstTag: 1)
        _ = upload.restart()
        let chunks = upload.handle(.uploadStatus(tag: 1, status: .ok, handle: 3, nextOffset: 0), payloadLimit: 40)
        #expect(!chunks.isEmpty)
        #expect(chunks.allSatisfy { ($0.chunkData?.count ?? 0) <= 33 })
        #expect(chunks.allSatisfy { (try? MessageCodec.encode($0, maxPayload: 40)) != nil })
        let full = TimelineUpload(bytes: Array(repeating: 7, count: 500), maxPayload: 256, firstTag: 1)
        var large = full
        _ = large.restart()
        let big = large.handle(.uploadStatus(tag: 1, status: .ok, handle: 3, nextOffset: 0), payloadLimit: 5000)
        #expect(big.first?.chunkData?.count == 249, "never more than the board's maximum")
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    exponential(exponent * naturalLog(base))
}
