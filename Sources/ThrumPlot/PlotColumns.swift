import ThrumModel

/// Samples aggregated into pixel columns, so that short events stay visible on long patterns.
struct PlotColumns {
    var intensityMin: [Float]
    var intensityMax: [Float]
    /// Intensity-weighted mean sharpness of the column; nil where nothing plays.
    var sharpness: [Float?]
    var count: Int { intensityMax.count }

    init(intensity: [Float], sharpness: [Float], count: Int) {
        let columns = max(count, 1)
        intensityMin = Array(repeating: 0, count: columns)
        intensityMax = Array(repeating: 0, count: columns)
        self.sharpness = Array(repeating: nil, count: columns)
        guard !intensity.isEmpty else { return }
        for column in 0..<columns {
            let start = column * intensity.count / columns
            let end = max(start + 1, (column + 1) * intensity.count / columns)
            var low = Float.infinity, high: Float = 0, weight: Float = 0, weighted: Float = 0
            for index in start..<min(end, intensity.count) {
                let value = intensity[index]
                low = min(low, value)
                high = max(high, value)
                if index < sharpness.count, value > 0 {
                    weight += value
                    weighted += value * sharpness[index]
                }
            }
            intensityMin[column] = low.isFinite ? low : 0
            intensityMax[column] = high
            self.sharpness[column] = weight > 0 ? weighted / weight : nil
        }
    }

    /// Consecutive columns where something plays, each as a polyline's points.
    func sharpnessRuns() -> [[(column: Int, value: Float)]] {
        var runs: [[(column: Int, value: Float)]] = []
        var current: [(column: Int, value: Float)] = []
        for (column, value) in sharpness.enumerated() {
            if let value {
                current.append((column, value))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }
}

/// Continuous events packed greedily into as few rows as keep them from overlapping (at most 6;
/// beyond that they share the last row).
struct EventTracks {
    private(set) var tracks: [[HapticEventSpan]] = []
    var count: Int { max(tracks.count, 1) }

    init(_ events: [ThrumModel.HapticEvent]) {
        var ends: [Double] = []
        for event in events {
            let span = HapticEventSpan(event)
            if let free = ends.firstIndex(where: { $0 <= event.time }) {
                tracks[free].append(span)
                ends[free] = event.time + event.duration
            } else if tracks.count < 6 {
                tracks.append([span])
                ends.append(event.time + event.duration)
            } else {
                tracks[5].append(span)
                ends[5] = max(ends[5], event.time + event.duration)
            }
        }
    }
}

/// What the strip needs of a continuous event.
struct HapticEventSpan {
    var time: Double
    var duration: Double
    var intensity: Float
    var sharpness: Float

    init(_ event: ThrumModel.HapticEvent) {
        time = event.time
        duration = event.duration
        intensity = event.intensity
        sharpness = event.sharpness
    }
}
