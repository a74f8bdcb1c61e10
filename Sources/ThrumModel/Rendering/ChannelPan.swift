/// How a player's pattern shares out over the channels of its locality (Protocol/SEMANTICS.md §12):
/// the reference for the board's per-channel gains.
public enum ChannelPan {
    /// The gain of each of `count` channels, in the locality's order. `position` nil (no pan since
    /// the start): every channel in full. Else, clamped to 0…1, the position lies between two
    /// neighbours, which share it at equal power (the energy model of Israr and Poupyrev's Tactile
    /// Brush for a phantom sensation between two actuators): √(1 − f) and √f, the others silent.
    public static func gains(position: Double?, count: Int) -> [Double] {
        guard count > 0 else { return [] }
        guard let position, count > 1 else { return Array(repeating: 1, count: count) }
        let x = min(max(position.isFinite ? position : 0, 0), 1) * Double(count - 1)
        let index = min(Int(x), count - 2)
        let fraction = x - Double(index)
        var gains = Array(repeating: 0.0, count: count)
        gains[index] = (1 - fraction).squareRoot()
        gains[index + 1] = fraction.squareRoot()
        return gains
    }

    /// A pan curve's position at `time` (seconds from its start): linear between points, held
    /// before the first and after the last, as the board evaluates run-time curves.
    public static func position(at time: Double, along points: [(time: Double, position: Double)]) -> Double? {
        guard let first = points.first else { return nil }
        if time <= first.time { return first.position }
        for (a, b) in zip(points, points.dropFirst()) where time < b.time {
            let span = b.time - a.time
            return span > 0 ? a.position + (b.position - a.position) * (time - a.time) / span : b.position
        }
        return points.last!.position
    }
}
