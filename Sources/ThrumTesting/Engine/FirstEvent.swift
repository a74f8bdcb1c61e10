import Thrum

extension AsyncStream where Element == HapticEngineEvent {
    /// The first event matching `predicate` within `timeout` of wall time, else nil: for tests and
    /// benchmarks against a board that runs in real time (a pty, QEMU), which must never wait forever.
    public func first(
        within timeout: Duration, where predicate: @escaping @Sendable (HapticEngineEvent) -> Bool
    ) async -> HapticEngineEvent? {
        await withTaskGroup(of: HapticEngineEvent?.self) { group in
            group.addTask {
                for await event in self where predicate(event) { return event }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
