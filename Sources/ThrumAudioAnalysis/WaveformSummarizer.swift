/// Builds a `WaveformSummary` as blocks arrive: at most `columns` columns of min/max. When a file
/// holds more frames than announced, neighbouring columns merge and each column covers twice as much.
struct WaveformSummarizer {
    private var summary: WaveformSummary
    private let columns: Int
    private var inColumn = 0

    init(columns: Int, announcedFrames: Int, sampleRate: Int) {
        self.columns = columns
        let perColumn = max(1, (announcedFrames + columns - 1) / columns)
        summary = WaveformSummary(framesPerColumn: perColumn, sampleRate: sampleRate, minimums: [], maximums: [])
        summary.minimums.reserveCapacity(columns)
        summary.maximums.reserveCapacity(columns)
    }

    mutating func append(_ samples: [Float]) {
        var next = 0
        while next < samples.count {
            var startsColumn = summary.minimums.isEmpty || inColumn == summary.framesPerColumn
            if startsColumn && summary.minimums.count == columns {
                mergePairs()
                startsColumn = inColumn == summary.framesPerColumn
            }
            if startsColumn {
                summary.minimums.append(samples[next])
                summary.maximums.append(samples[next])
                inColumn = 1
                next += 1
                continue
            }
            // The rest of this column at once.
            let run = min(samples.count - next, summary.framesPerColumn - inColumn)
            let last = summary.minimums.count - 1
            var (low, high) = (summary.minimums[last], summary.maximums[last])
            samples.withUnsafeBufferPointer { buffer in
                for index in next..<next + run {
                    low = min(low, buffer[index])
                    high = max(high, buffer[index])
                }
            }
            (summary.minimums[last], summary.maximums[last]) = (low, high)
            inColumn += run
            next += run
        }
    }

    /// Halves the resolution; an odd last column becomes a half-full one that keeps filling.
    private mutating func mergePairs() {
        let count = summary.minimums.count
        var minimums: [Float] = []
        var maximums: [Float] = []
        minimums.reserveCapacity(columns)
        maximums.reserveCapacity(columns)
        for index in stride(from: 0, to: count, by: 2) {
            let next = min(index + 1, count - 1)
            minimums.append(min(summary.minimums[index], summary.minimums[next]))
            maximums.append(max(summary.maximums[index], summary.maximums[next]))
        }
        summary.minimums = minimums
        summary.maximums = maximums
        inColumn = count % 2 == 1 ? summary.framesPerColumn : 2 * summary.framesPerColumn
        summary.framesPerColumn *= 2
    }

    var result: WaveformSummary { summary }
}
