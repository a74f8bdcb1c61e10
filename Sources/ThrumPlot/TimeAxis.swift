/// Chooses tick marks for a seconds axis: 1, 2 or 5 times a power of ten, about `target` ticks.
struct TimeAxis {
    let duration: Double
    let step: Double

    init(duration: Double, target: Int = 10) {
        self.duration = max(duration, 1e-3)
        let raw = self.duration / Double(max(target, 1))
        let power = pow10(floorLog10(raw))
        let multiple = [1.0, 2.0, 5.0, 10.0].first { $0 * power >= raw } ?? 10
        step = multiple * power
    }

    var ticks: [Double] {
        let count = Int((duration / step).rounded(.down))
        return (0...count).map { Double($0) * step }
    }

    /// A label with no more decimals than the step needs: `0.25 s`, `2 s`.
    func label(_ seconds: Double) -> String {
        let decimals = max(0, -floorLog10(step))
        return formatDecimal(seconds, decimals: decimals) + " s"
    }
}

private func floorLog10(_ value: Double) -> Int {
    var exponent = 0
    var scaled = value
    while scaled >= 10 {
        scaled /= 10
        exponent += 1
    }
    while scaled < 1 {
        scaled *= 10
        exponent -= 1
    }
    return exponent
}

private func pow10(_ exponent: Int) -> Double {
    var result = 1.0
    if exponent >= 0 { for _ in 0..<exponent { result *= 10 } } else { for _ in 0 ..< -exponent { result /= 10 } }
    return result
}

/// Fixed-point formatting without Foundation's locale-dependent formatters.
public func formatDecimal(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(whole) }
    let fraction = Int(scaled) - whole * Int(scale)
    let digits = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
}
