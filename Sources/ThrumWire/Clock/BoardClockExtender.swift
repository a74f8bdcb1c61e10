/// Extends the board's 32-bit microsecond clock (it wraps every 71.6 minutes) to 64 bits by choosing,
/// for each reading, the 64-bit value nearest to the previous one (PROTOCOL.md §7.1). Readings must be
/// less than 2^31 µs (35 minutes) apart, which the ping schedule guarantees.
public struct BoardClockExtender: Sendable {
    public private(set) var last: UInt64?

    public init() {}

    public mutating func extend(_ reading: UInt32) -> UInt64 {
        guard let last else {
            self.last = UInt64(reading)
            return UInt64(reading)
        }
        let delta = Int64(Int32(bitPattern: reading &- UInt32(truncatingIfNeeded: last)))
        let extended = UInt64(max(0, Int64(bitPattern: last) + delta))
        self.last = max(last, extended)
        return extended
    }
}
