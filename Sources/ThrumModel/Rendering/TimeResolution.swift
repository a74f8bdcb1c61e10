/// Time differences are rounded to whole nanoseconds before they are compared with a boundary
/// (Protocol/SEMANTICS.md §1). Decimal times from files are not exact in binary (0.12 − 0.1 is
/// 0.01999…); rounding the difference makes the renderer decide boundaries as the decimals
/// written, so "a sample exactly at the end" means what it says.
enum TimeResolution {
    static let perSecond = 1e9

    static func snap(_ seconds: Double) -> Double {
        (seconds * perSecond).rounded() / perSecond
    }
}

/// Whether `time` lies before `boundary` by at least half a nanosecond (SEMANTICS.md §1.4).
func isBefore(_ time: Double, _ boundary: Double) -> Bool {
    TimeResolution.snap(time - boundary) < 0
}
