import Foundation

/// Picks onsets from the flux as frames arrive: a frame is an onset when its flux is the largest
/// within ±16 ms, exceeds the mean of the surrounding 100 ms + 32 ms by `delta`, comes at least 30 ms
/// after the previous onset, and the band is above the noise floor just after it (Böck, Krebs &
/// Schedl 2012). It looks 32 ms ahead and keeps 64 to 128 frames (170 to 340 ms).
///
/// Frames pass through it and come out (`release`) once judged, their amplitude smoothed and the
/// attack of each onset made instant:
/// - the amplitude released is the RMS of the amplitudes of the 7 frames around (±8 ms): a 21 ms
///   window holds about one cycle of a 50 Hz body, whose measured amplitude ripples with its phase;
/// - from an onset to the loudest frame after it, the amplitude is that frame's. The window smears
///   a hit's attack over its length; the onset says where it really starts.
struct OnsetPicker {
    struct Candidate {
        /// The onset frame's time.
        var time: Double
        /// How much the band's amplitude rose at the onset (same units as `FrameFeatures.amplitude`).
        var rise: Double
        /// The band's sharpness just after the onset.
        var sharpness: Double
    }

    static let aroundMax = 6
    static let beforeMean = 38
    static let ahead = 12
    static let minimumGap = 11
    static let smoothing = 3

    private let delta: Double
    private let floorAmplitude: Double
    private var frames: [FrameFeatures] = []
    /// The amplitude an onset's instant attack raises a frame to (0: none).
    private var attackFloor: [Double] = []
    /// The index of `frames[0]`.
    private var base = 0
    private var lastOnset = Int.min / 2

    /// `sensitivity` 0…1 maps to a threshold above the local mean of 0.2 (few) … 0.0125 (many)
    /// mean log-magnitude rise per bin.
    init(sensitivity: Double, floorAmplitude: Double) {
        delta = 0.2 * pow16(-sensitivity)
        self.floorAmplitude = floorAmplitude
    }

    /// Takes the next frame; returns the onset it confirms (the frame `ahead` frames back), if any,
    /// and releases that frame.
    mutating func append(_ features: FrameFeatures, release: (FrameFeatures) -> Void) -> Candidate? {
        frames.append(features)
        attackFloor.append(0)
        defer { trim() }
        let index = base + frames.count - 1 - Self.ahead
        guard index >= base else { return nil }
        let onset = judge(index)
        release(released(index - base))
        return onset
    }

    /// Judges and releases the frames still waiting for their look-ahead at the end of the sound.
    mutating func finish(release: (FrameFeatures) -> Void) -> [Candidate] {
        var found: [Candidate] = []
        let last = base + frames.count - 1
        var index = max(base, last - Self.ahead + 1)
        while index <= last {
            if let onset = judge(index) { found.append(onset) }
            release(released(index - base))
            index += 1
        }
        return found
    }

    private mutating func judge(_ index: Int) -> Candidate? {
        let position = index - base
        let flux = frames[position].flux
        guard flux > delta, index - lastOnset >= Self.minimumGap else { return nil }
        let end = frames.count - 1
        let maxRange = max(0, position - Self.aroundMax)...min(end, position + Self.aroundMax)
        for other in maxRange where frames[other].flux > flux || (other < position && frames[other].flux == flux) {
            return nil
        }
        let meanRange = max(0, position - Self.beforeMean)...min(end, position + Self.ahead)
        let mean = meanRange.reduce(0) { $0 + frames[$1].flux } / Double(meanRange.count)
        guard flux >= mean + delta else { return nil }
        let after = position...min(end, position + Self.ahead)
        guard after.contains(where: { frames[$0].amplitude >= floorAmplitude }) else { return nil }
        let before = smoothed(max(0, position - 4))
        // Smoothing needs the frames after: the peak is looked for where they have arrived.
        let settled = position...max(position, min(end - Self.smoothing, position + Self.ahead))
        let sharpest = settled.max { smoothed($0) < smoothed($1) } ?? position
        let peak = smoothed(sharpest)
        lastOnset = index
        for attack in position..<sharpest { attackFloor[attack] = peak }
        return Candidate(
            time: frames[position].time, rise: max(0, peak - before),
            sharpness: frames[sharpest].sharpness)
    }

    /// The RMS of the amplitudes within `smoothing` frames of `position` (those that exist).
    private func smoothed(_ position: Int) -> Double {
        let range = max(0, position - Self.smoothing)...min(frames.count - 1, position + Self.smoothing)
        let power = range.reduce(0) { $0 + frames[$1].amplitude * frames[$1].amplitude }
        return (power / Double(range.count)).squareRoot()
    }

    /// The frame at `position` as it leaves: smoothed amplitude, raised by an onset's attack.
    private func released(_ position: Int) -> FrameFeatures {
        var frame = frames[position]
        frame.amplitude = max(smoothed(position), attackFloor[position])
        return frame
    }

    private mutating func trim() {
        let keep = Self.beforeMean + Self.ahead + Self.aroundMax + 8
        if frames.count > 2 * keep {
            let drop = frames.count - keep
            frames.removeFirst(drop)
            attackFloor.removeFirst(drop)
            base += drop
        }
    }
}

private func pow16(_ exponent: Double) -> Double { exp(exponent * log(16)) }
