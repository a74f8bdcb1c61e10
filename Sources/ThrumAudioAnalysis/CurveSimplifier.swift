/// Reduces a sampled curve to breakpoints as samples arrive, so that straight lines between the
/// breakpoints pass within `tolerance` of every sample (the cone, or "swinging door", method:
/// Bristol 1990). It holds one segment's state, not the samples.
struct CurveSimplifier {
    private(set) var points: [(time: Double, value: Double)] = []
    private var anchor: (time: Double, value: Double)?
    private var last: (time: Double, value: Double)?
    private var low = -Double.infinity
    private var high = Double.infinity

    /// Adds a sample; `tolerance` may change between samples (each sample keeps the one it came with).
    mutating func append(time: Double, value: Double, tolerance: Double) {
        guard let start = anchor else {
            anchor = (time, value)
            points.append((time, value))
            return
        }
        let span = time - start.time
        guard span > 0 else { return }
        let newLow = max(low, (value - tolerance - start.value) / span)
        let newHigh = min(high, (value + tolerance - start.value) / span)
        if newLow <= newHigh {
            (low, high) = (newLow, newHigh)
            last = (time, value)
            return
        }
        // The sample leaves the cone: end the segment at the previous sample, on the line.
        closeSegment()
        append(time: time, value: value, tolerance: tolerance)
    }

    /// Ends the last segment.
    mutating func finish() {
        if last != nil { closeSegment() }
    }

    private mutating func closeSegment() {
        guard let start = anchor, let end = last else { return }
        let slope = low.isFinite && high.isFinite ? (low + high) / 2 : 0
        let point = (time: end.time, value: start.value + slope * (end.time - start.time))
        points.append(point)
        anchor = point
        last = nil
        (low, high) = (-Double.infinity, Double.infinity)
    }
}
