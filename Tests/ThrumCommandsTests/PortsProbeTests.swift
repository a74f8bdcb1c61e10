import Foundation
import Testing
import Thrum
import ThrumTesting
import ThrumTransport

@testable import ThrumCommands

/// `thrum ports` probes every port at once and lists what each gave (`PortsCommand.probe`).
@Suite("thrum ports: probing")
struct PortsProbeTests {
    /// The configuration of a reported crash: a port that opens but where nothing answers (a silent
    /// /dev/ttyS0; here a pseudo-terminal whose other side stays open and says nothing), beside one
    /// that cannot be opened. With the probe's task-group child written the way Swift 6.3.1 miscompiles
    /// under optimisation (see `PortsCommand.outcome(of:)`), the group yields nothing for the silent
    /// port (an empty result here) or a result that was never written (`thrum ports` crashed hashing
    /// its path). Debug builds never showed it: this test must also run in a release build
    /// (`swift build -c release --build-tests -Xswiftc -enable-testing`, then
    /// `swift test -c release --skip-build --filter PortsProbeTests`).
    @Test("a port that opens but never answers is listed with no board, one that cannot be opened with its error")
    func silentAndMissingPorts() async throws {
        let terminal = try PseudoTerminal.open(keepDeviceOpen: true)
        let missing = "/dev/ttyTHRUM-does-not-exist"
        let clock = ManualClock()
        let outcomes = try await clock.drive(limit: .seconds(5)) {
            await PortsCommand.probe([terminal.devicePath, missing]) { path in
                try await HapticEngine.probe(
                    DeviceAddress(parsing: path), timeout: 0.3, clock: ManualEngineClock(clock))
            }
        }
        #expect(outcomes.count == 2)
        switch outcomes[terminal.devicePath] {
        case .success(nil)?: break
        case let other: Issue.record("silent port: \(String(describing: other))")
        }
        switch outcomes[missing] {
        case .failure(let error)?: #expect(error is HapticEngineError)
        case let other: Issue.record("missing port: \(String(describing: other))")
        }
        _ = terminal  // the device side stays open (and silent) until here
    }
}
