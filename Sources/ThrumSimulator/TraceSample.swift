/// One rendered tick of one channel, as the core reported it (its trace hook).
public struct TraceSample: Sendable, Hashable {
    /// Board time of the tick's start, microseconds.
    public var time: UInt64
    public var channel: Int
    /// Q15: 32768 = 1.
    public var intensityQ15: UInt16
    public var sharpnessQ15: UInt16
    public var audioQ15: UInt16
    /// Actuator drive, Q14 of the channel's max_mv.
    public var driveQ14: Int16
    public var frequencyDeciHertz: UInt16

    public var intensity: Double { Double(intensityQ15) / 32768 }
    public var sharpness: Double { Double(sharpnessQ15) / 32768 }
    public var audio: Double { Double(audioQ15) / 32768 }
    public var seconds: Double { Double(time) / 1_000_000 }
}

/// The acceleration of one channel's actuator, sampled at a fixed rate from board time 0.
public struct AccelerationTrace: Sendable, Hashable {
    public var sampleRate: Double
    /// g, signed, one value per 1 / sampleRate seconds from `start`.
    public var values: [Float] = []
    public var start: Double = 0

    /// Greatest |acceleration| over each window of `seconds` (an envelope that plots well).
    public func envelope(window seconds: Double) -> [Float] {
        let size = max(1, Int((seconds * sampleRate).rounded()))
        return stride(from: 0, to: values.count, by: size).map { from in
            values[from..<min(values.count, from + size)].reduce(0) { max($0, abs($1)) }
        }
    }
}
