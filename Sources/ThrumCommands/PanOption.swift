import ArgumentParser
import Thrum

/// `--pan 0:0,2:1`: a pan curve as TIME:POSITION points (seconds from the start; 0 the locality's
/// first channel, 1 its last), sorted by time.
func parsePan(_ text: String) throws -> [HapticPanPoint] {
    var points: [HapticPanPoint] = []
    for point in text.split(separator: ",") {
        let parts = point.split(separator: ":")
        guard parts.count == 2, let time = Double(parts[0]), let position = Double(parts[1]), time.isFinite, time >= 0,
            (0...1).contains(position)
        else {
            throw ValidationError("--pan point '\(point)': write TIME:POSITION, seconds >= 0 and a position 0...1")
        }
        points.append(HapticPanPoint(time: time, position: position))
    }
    guard !points.isEmpty else { throw ValidationError("--pan: give at least one TIME:POSITION point") }
    return points.sorted { $0.time < $1.time }
}
