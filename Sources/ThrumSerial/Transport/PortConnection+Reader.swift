import ThrumTransport

extension PortConnection {
    /// The reader thread: waits for input with `sp_wait`, takes it with `sp_nonblocking_read`
    /// while there is room in the receive buffer (when there is none it stops reading, so the
    /// kernel buffers and flow control hold the sender back).
    ///
    /// libserialport cannot tell "nothing yet" from "end of file" (a hung-up line), so after a
    /// read that got nothing the thread asks `sp_input_waiting`, which fails with EIO once the
    /// device was unplugged.
    func runReader() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: tuning.readChunk, alignment: 1)
        defer { buffer.deallocate() }
        let interval = tuning.pollIntervalMilliseconds
        let clock = ContinuousClock()
        var earlyWakes = 0

        while true {
            let room = state.wait(until: { $0.closing || $0.inputEnd != nil || $0.bufferedCount < capacity }) { state in
                state.closing || state.inputEnd != nil ? 0 : capacity - state.bufferedCount
            }
            if room == 0 { return }

            let started = clock.now
            do {
                try calls.wait(events, interval)
                let window = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(room, buffer.count)])
                let count = try calls.nonblockingRead(port, window)
                if count > 0 {
                    deliver(UnsafeRawBufferPointer(rebasing: window[..<count]))
                    earlyWakes = 0
                    continue
                }
                _ = try calls.inputWaiting(port)
            } catch {
                endInput(error.transportError(device: device, duringIO: true))
                return
            }
            // A quiet line: `sp_wait` sat out its timeout. Returning early again and again with
            // nothing to read is a line that keeps signalling (hung up without an error).
            if clock.now - started < .milliseconds(Int(interval)) / 2 {
                earlyWakes += 1
                if earlyWakes >= tuning.earlyWakeLimit {
                    endInput(
                        TransportError(
                            .disconnected, device: device, operation: "sp_wait",
                            detail: "the line keeps reporting events but has nothing to read: it hung up"))
                    return
                }
            } else {
                earlyWakes = 0
            }
        }
    }

    /// Appends received bytes and hands chunks to waiting readers.
    private func deliver(_ bytes: UnsafeRawBufferPointer) {
        var resumptions = Resumptions()
        state.withLock { state in
            guard !state.closing else { return }
            state.received.append(bytes)
            while !state.readers.isEmpty, state.bufferedCount > 0 {
                state.readers.serveFirst(.success(take(&state)), into: &resumptions)
            }
        }
        resumptions.run()
    }
}
