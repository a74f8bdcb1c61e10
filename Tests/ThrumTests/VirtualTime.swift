import ThrumTesting
import ThrumTransport

/// Runs `body` while the manual clock moves a millisecond at a time (engine, link and embedded
/// simulator all sleep on it), until `body` returns or `limit` of virtual time passes.
func withVirtualTime<T: Sendable>(
    _ clock: ManualClock, limit: Duration = .seconds(30), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await clock.drive(limit: limit, body)
}

/// Moves the clock on by `duration` in millisecond steps, letting tasks run between them.
func advance(_ clock: ManualClock, by duration: Duration) async {
    await clock.pass(duration)
}
