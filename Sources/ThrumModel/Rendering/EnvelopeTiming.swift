/// How the normalised envelope parameters (`AttackTime`, `DecayTime`, `ReleaseTime`, 0…1) become
/// seconds. Protocol/SEMANTICS.md §4 is the normative text; the firmware uses the same table.
///
/// Apple only says "0 is shortest, higher values increase the time exponentially". We use
/// `T(v) = (2^(6v) − 1) / 63` seconds: exactly 0 at v = 0 (a default event is a sharp-edged
/// rectangle of its authored duration), exactly 1 s at v = 1 (Apple's `Drums.ahap` uses
/// DecayTime 1 on a 1 s event), 111 ms at v = 0.5. That curve is sampled at 17 points
/// (v = i/16) and rounded to whole microseconds; between points the table is interpolated
/// linearly. The table, not the closed form, is the definition: integer maths on an MCU can
/// reproduce it exactly.
public enum EnvelopeTiming {
    /// Segment length in microseconds at v = i/16, i = 0…16.
    public static let tableMicroseconds: [Int] = [
        0, 4_712, 10_822, 18_746, 29_023, 42_349, 59_632, 82_045, 111_111,
        148_805, 197_688, 261_081, 343_292, 449_907, 588_169, 767_472, 1_000_000,
    ]

    /// The longest segment the table can give, in seconds.
    public static let maximumSeconds: Double = 1.0

    /// Seconds for a normalised value; values outside 0…1 (and NaN) are clamped first.
    public static func seconds(for value: Float) -> Double {
        let v = Double(ParameterRange.unit.clamp(value))
        let position = v * 16
        let index = min(Int(position), 15)
        let fraction = position - Double(index)
        let lower = Double(tableMicroseconds[index])
        let upper = Double(tableMicroseconds[index + 1])
        return (lower + (upper - lower) * fraction) / 1_000_000
    }

    public static func attackSeconds(_ value: Float) -> Double { seconds(for: value) }
    public static func decaySeconds(_ value: Float) -> Double { seconds(for: value) }
    public static func releaseSeconds(_ value: Float) -> Double { seconds(for: value) }
}
