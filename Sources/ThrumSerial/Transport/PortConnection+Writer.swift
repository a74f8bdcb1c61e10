import ThrumTransport

extension PortConnection {
    /// The writer thread: hands queued writes to `sp_blocking_write` in slices, each call bounded
    /// by the poll interval so that closing and cancelling are noticed while the OS buffer is
    /// full. A write completes once all its bytes were handed to the OS.
    func runWriter() {
        while true {
            let next = monitor.wait(until: { $0.closing || (!$0.writes.isEmpty && $0.writeEnd == nil) }) { state in
                state.closing ? nil : state.writes.first.map { ($0.id, $0.bytes, $0.offset) }
            }
            guard let (id, bytes, offset) = next else { return }

            let end = min(bytes.count, offset + tuning.writeSlice)
            let outcome = bytes.withUnsafeBytes { all in
                Result { () throws(LibSerialPortFailure) -> Int in
                    try calls.blockingWrite(port, UnsafeRawBufferPointer(rebasing: all[offset ..< end]),
                                            tuning.pollIntervalMilliseconds)
                }
            }
            let written: Int
            switch outcome {
            case .success(let count):
                written = min(count, end - offset)
            case .failure(let failure):
                endWrites(failure.transportError(device: device, duringIO: true))
                continue
            }
            let finished = monitor.withLock { state -> WriteContinuation? in
                // The write may have been cancelled or closed while the call ran.
                guard let index = state.writes.firstIndex(where: { $0.id == id }) else { return nil }
                state.writes[index].offset += written
                guard state.writes[index].offset >= state.writes[index].bytes.count else { return nil }
                return state.writes.remove(at: index).continuation
            }
            finished?.resume()
        }
    }
}
