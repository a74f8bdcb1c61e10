import ThrumTimeline

/// The sound of a WAV file as one channel of values in −1…1: what a waveform object is made from
/// (Protocol/WAVEFORM.md §2). Boards play 8-bit mono at their own rate, so the host averages the
/// channels, resamples and quantises; the formats read are the ones §2 lists.
struct WAVSamples: Sendable, Equatable {
    var sampleRate: Int
    /// One value a frame, channels averaged, in −1…1.
    var samples: [Float]

    /// Decodes the sample data of `bytes` (header chunks through `WAVInfo.read`). A data chunk
    /// cut short keeps its whole frames; one without a single frame is a problem, as there is
    /// nothing to send a board.
    init(_ bytes: [UInt8]) throws(WAVInfo.Problem) {
        try self.init(bytes, info: WAVInfo.read(bytes))
    }

    /// The same, for a caller that has read the header chunks already.
    init(_ bytes: [UInt8], info: WAVInfo) throws(WAVInfo.Problem) {
        guard let decode = Self.decoder(tag: info.formatTag, bits: info.bitsPerSample) else {
            throw WAVInfo.Problem(
                offset: info.formatTagOffset,
                detail:
                    "format tag \(info.formatTag) with \(info.bitsPerSample)-bit samples is not PCM of 8, 16, 24 or 32 bits or 32-bit float"
            )
        }
        let width = info.bitsPerSample / 8, channels = info.channels
        let frames = info.dataBytes / (width * channels)
        guard frames > 0 else { throw WAVInfo.Problem(offset: info.dataOffset, detail: "no samples") }
        var samples: [Float] = []
        samples.reserveCapacity(frames)
        for frame in 0..<frames {
            let start = info.dataOffset + frame * width * channels
            var sum = 0.0
            for channel in 0..<channels { sum += decode(bytes, start + channel * width) }
            samples.append(Float(sum / Double(channels)))
        }
        self.sampleRate = info.sampleRate
        self.samples = samples
    }

    init(sampleRate: Int, samples: [Float]) {
        self.sampleRate = sampleRate
        self.samples = samples
    }

    /// One sample at an offset as a value in −1…1 (Double, so 32-bit integers keep their
    /// precision until the channels are averaged), or nil for a format §2 does not list.
    private static func decoder(tag: Int, bits: Int) -> (([UInt8], Int) -> Double)? {
        func signed(_ b: [UInt8], _ at: Int, _ width: Int) -> Double {
            // Little-endian, sign-extended by shifting the top byte into an Int32's top.
            var raw: UInt32 = 0
            for index in 0..<width { raw |= UInt32(b[at + index]) << (8 * (4 - width + index)) }
            return Double(Int32(bitPattern: raw)) / 2_147_483_648
        }
        switch (tag, bits) {
        case (1, 8): return { b, at in (Double(b[at]) - 128) / 128 }  // unsigned, 128 is silence
        case (1, 16): return { b, at in signed(b, at, 2) }
        case (1, 24): return { b, at in signed(b, at, 3) }
        case (1, 32): return { b, at in signed(b, at, 4) }
        case (3, 32):
            return { b, at in
                let raw = UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
                let value = Double(Float(bitPattern: raw))
                return value.isNaN ? 0 : max(-1, min(1, value))  // float files may overshoot full scale
            }
        default: return nil
        }
    }

    /// `samples` (at `sourceRate`) at `rate`: output sample k is the source at time k / rate,
    /// linearly interpolated between the two source samples around it (WAVEFORM.md §2); past the
    /// last source sample, which only upsampling reaches, the last one holds. The output has
    /// floor(count × rate / sourceRate) samples, at least one when there is any source.
    static func resample(_ samples: [Float], from sourceRate: Int, to rate: Int) -> [Float] {
        precondition(sourceRate > 0 && rate > 0, "sample rates are positive")
        guard !samples.isEmpty else { return [] }
        let count = max(1, samples.count * rate / sourceRate)
        return (0..<count).map { k in
            // Position k × sourceRate / rate in source samples, as whole part and exact fraction.
            let position = k * sourceRate
            let index = position / rate
            let fraction = Float(position % rate) / Float(rate)
            let next = samples[min(index + 1, samples.count - 1)]
            return samples[index] + (next - samples[index]) * fraction
        }
    }

    /// The waveform object a board at `rate` plays for resource `resourceID`.
    func waveformObject(resourceID: UInt32, rate: Int) -> WaveformObject {
        let resampled = Self.resample(samples, from: sampleRate, to: rate)
        return WaveformObject(
            resourceID: resourceID, sampleRate: UInt32(rate), samples: resampled.map(WaveformObject.quantise))
    }
}
