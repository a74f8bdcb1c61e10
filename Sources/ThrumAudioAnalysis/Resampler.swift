import CSampleRate

/// Streams mono blocks to the analysis rate through libsamplerate (its fastest band-limited sinc
/// converter); passes them through when the rates already match.
final class Resampler {
    private let state: OpaquePointer?
    private let ratio: Double
    private var output: [Float] = []
    private var scratch: [Float] = []

    init(from sourceRate: Int, to targetRate: Int) {
        ratio = Double(targetRate) / Double(sourceRate)
        if sourceRate == targetRate {
            state = nil
        } else {
            var error: Int32 = 0
            state = src_new(Int32(SRC_SINC_FASTEST), 1, &error)
            // It fails only without memory for its tables; analysed at the wrong rate, every time would be wrong.
            precondition(state != nil, "libsamplerate: \(String(cString: src_strerror(error)))")
        }
    }

    deinit { if let state { src_delete(state) } }

    /// The resampled counterpart of `input` (empty input with `last` flushes the converter's tail).
    func process(_ input: [Float], last: Bool) -> [Float] {
        guard let state else { return input }
        output.removeAll(keepingCapacity: true)
        let capacity = Int(Double(input.count) * ratio) + 256
        if scratch.count < capacity { scratch = [Float](repeating: 0, count: capacity) }
        var offset = 0
        repeat {
            var data = SRC_DATA()
            let (used, generated) = input.withUnsafeBufferPointer { inBuffer in
                scratch.withUnsafeMutableBufferPointer { outBuffer in
                    data.data_in = inBuffer.baseAddress.map { $0 + offset }
                    data.input_frames = inBuffer.count - offset
                    data.data_out = outBuffer.baseAddress
                    data.output_frames = outBuffer.count
                    data.src_ratio = ratio
                    data.end_of_input = last ? 1 : 0
                    _ = src_process(state, &data)
                    return (Int(data.input_frames_used), Int(data.output_frames_gen))
                }
            }
            output.append(contentsOf: scratch.prefix(generated))
            offset += used
            if generated == 0 && used == 0 { break }
        } while offset < input.count
        if last {
            // Drain what the filter still holds after the end of input.
            while true {
                var data = SRC_DATA()
                let generated = scratch.withUnsafeMutableBufferPointer { outBuffer in
                    data.data_in = nil
                    data.input_frames = 0
                    data.data_out = outBuffer.baseAddress
                    data.output_frames = outBuffer.count
                    data.src_ratio = ratio
                    data.end_of_input = 1
                    _ = src_process(state, &data)
                    return Int(data.output_frames_gen)
                }
                if generated == 0 { break }
                output.append(contentsOf: scratch.prefix(generated))
            }
        }
        return output
    }
}
