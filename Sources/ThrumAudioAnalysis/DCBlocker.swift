/// Removes a DC offset: a one-pole high-pass at 10 Hz, y[n] = x[n] − x[n−1] + R·y[n−1] with
/// R = 1 − 2π·10/rate (J. O. Smith, *Introduction to Digital Filters*, "DC blocker"). It runs before
/// resampling, so the resampler never sees the offset start as a step.
struct DCBlocker {
    private let pole: Float
    private var previousInput: Float?
    private var previousOutput: Float = 0

    init(sampleRate: Int) { pole = Float(1 - 2 * Double.pi * 10 / Double(sampleRate)) }

    /// The signal before the first sample is taken to be the first sample: a file that starts at
    /// an offset starts without a step.
    mutating func process(_ block: inout [Float]) {
        guard let first = block.first else { return }
        var (input, output, pole) = (previousInput ?? first, previousOutput, self.pole)
        block.withUnsafeMutableBufferPointer { samples in
            for index in samples.indices {
                let sample = samples[index]
                output = sample - input + pole * output
                input = sample
                samples[index] = output
            }
        }
        (previousInput, previousOutput) = (input, output)
    }
}
