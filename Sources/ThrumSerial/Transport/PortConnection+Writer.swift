import ThrumTransport

extension PortConnection {
    /// The writer thread: hands queued writes to `sp_blocking_write` in slices, each call bounded
    /// by the poll interval so that closing and cancelling are noticed while the OS buffer is
    /// full. A write completes once all its bytes were handed to the OS.
    func runWriter() {
        while true {
            let next = state.wait(until: { $0.closing || (!$0.writes.isEmpty && $0.writeEnd == nil) }) { state in
                state.closing ? nil : state.writes.first
            }
            guard let (id, remaining) = next else { return }

            let slice = remaining.prefix(tuning.writeSlice)
            let outcome = slice.withUnsafeBytes { slice in
                Result { () throws(LibSerialPortFailure) -> Int in
                    try calls.blockingWrite(port, slice, tuning.pollIntervalMilliseconds)
                }
            }
            let written: Int
            switch outcome {
            case .success(let count):
                written = min(count, slice.count)
            case .failure(let failure):
                endWrites(failure.transportError(device: device, duringIO: true))
                continue
            }
            var resumptions = Resumptions()
            state.withLock { $0.writes.advance(id, by: written, into: &resumptions) }
            resumptions.run()
        }
    }
}
