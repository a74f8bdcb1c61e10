/// One benchmark figure, printed as
/// `METRIC <name> <value> <unit> target <comparison><target> PASS|FAIL`.
struct Metric {
    enum Goal {
        /// The value must be at least the target (throughput, ratios).
        case atLeast(Double)
        /// The value must be at most the target (latency, memory, error).
        case atMost(Double)
        /// Reported only; no target.
        case none
    }

    var name: String
    var value: Double
    var unit: String
    var goal: Goal

    var passed: Bool {
        switch goal {
        case .atLeast(let target): return value >= target
        case .atMost(let target): return value <= target
        case .none: return true
        }
    }

    var line: String {
        let shown = Metric.format(value)
        switch goal {
        case .atLeast(let target):
            return "METRIC \(name) \(shown) \(unit) target >=\(Metric.format(target)) \(passed ? "PASS" : "FAIL")"
        case .atMost(let target):
            return "METRIC \(name) \(shown) \(unit) target <=\(Metric.format(target)) \(passed ? "PASS" : "FAIL")"
        case .none: return "METRIC \(name) \(shown) \(unit) target none PASS"
        }
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 1 : magnitude >= 1 ? 3 : 5
        return String(format: "%.\(decimals)f", value)
    }
}
