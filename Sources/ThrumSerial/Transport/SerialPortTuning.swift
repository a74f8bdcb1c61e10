/// How the port's threads pace their libserialport calls.
struct SerialPortTuning: Sendable {
    /// The longest a thread stays in one blocking call (`sp_wait`, `sp_blocking_write`): it
    /// bounds how long `close()` waits for the threads, since libserialport calls cannot be
    /// interrupted.
    var pollIntervalMilliseconds: UInt32 = 100
    /// The most bytes one `sp_blocking_write` is given, so a cancelled write stops soon.
    var writeSlice = 16 * 1024
    /// The most bytes one `sp_nonblocking_read` takes.
    var readChunk = 64 * 1024
    /// After this many `sp_wait`s in a row that return early with nothing to read while the
    /// port still answers, the line is treated as hung up rather than spinning forever.
    var earlyWakeLimit = 64

    static let standard = SerialPortTuning()
}
