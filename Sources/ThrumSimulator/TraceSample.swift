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

/// One tick of the board's audio output (SEMANTICS.md §6.4): its samples at the board's audio
/// rate, the first at `time`.
public struct AudioBlock: Sendable, Hashable {
    /// Board time of the first sample, microseconds.
    public var time: UInt64
    /// Q15 signed: 32767 is full scale.
    public var samples: [Int16]
}

extension Array where Element == AudioBlock {
    /// The output as one signal from board time `start` (µs) for `count` samples at `rate`,
    /// silence where no block was written.
    public func signal(from start: UInt64, count: Int, rate: Int) -> [Int16] {
        var out = [Int16](repeating: 0, count: count)
        let period = UInt64(1_000_000 / rate)
        for block in self where block.time + UInt64(block.samples.count) * period > start {
            for (offset, sample) in block.samples.enumerated() {
                let time = block.time + UInt64(offset) * period
                guard time >= start else { continue }
                let index = Int((time - start) / period)
                if index < count { out[index] = sample }
            }
        }
        return out
    }
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
