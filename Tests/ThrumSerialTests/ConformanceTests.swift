import Testing
import ThrumTesting
import ThrumTransport

@testable import ThrumSerial

/// The libserialport transport keeps the `ByteTransport` contract, run over the faked library:
/// two ports joined by a null-modem cable, each served by its own reader and writer threads.
@Suite(.timeLimit(.minutes(5))) struct ConformanceTests {
    @Test("libserialport transport over a faked null-modem pair", arguments: TransportConformance.checks)
    func fakeNullModem(_ check: TransportConformance.Check) async throws {
        let bus = FakeSerialBus()
        bus.addPair()
        try await check.run {
            (try openFake("/dev/ttyFAKE0", on: bus), try openFake("/dev/ttyFAKE1", on: bus))
        }
        #expect(bus.outstandingHandles == 0, "every port and event set is freed after close")
        #expect(bus.device("/dev/ttyFAKE0")?.isOpen == false)
    }
}
