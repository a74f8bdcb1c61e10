/// Chooses how large the host's reliable payloads should be from what the line does to them (PROTOCOL.md §6.5).
///
/// A frame of `n` payload bytes puts `n + overhead` bytes on the line; if each byte is hit independently with
/// probability `e`, the frame survives with `(1 − e)^(n + overhead)`, so the payload share of the line is
/// `n / (n + overhead) · (1 − e)^(n + overhead)`. It peaks at `n² + overhead·n = overhead / −ln(1 − e)`:
/// about 30 bytes at e = 1 %, the negotiated maximum on a clean line.
///
/// `e` is estimated from recent transmissions of the oldest frame in flight (the only frame whose loss
/// go-back-N can attribute): a loss is a resend forced by a NAK or by duplicate acknowledgements (timeouts
/// are left out: a lost acknowledgement or a slow line causes them as well); a success is an acknowledgement
/// covering a frame. Both are weighted by a decay so that old evidence fades: frames that die shrink the
/// limit within a few observations, a clean line lets it grow back.
///
/// Frames also die whatever their size (dropped by a USB stack, hit by a burst): smaller frames do not help
/// there and cost overhead. Up to `sizeIndependentLoss` of the frames lost is put down to that and not to
/// byte errors, so a line that drops 5 % of its frames keeps the full size.
///
/// A session starts at `initial` and doubles after every 4 frames delivered in a row, up to what the
/// estimate allows:
/// frames already queued cannot be cut again, and a first window of full-size frames would never get
/// through a line that corrupts 1 % of its bytes.
public struct AdaptivePayloadSize: Equatable, Sendable {
    /// Bytes a frame adds to its payload on the wire: header and CRC, the COBS code byte, a delimiter.
    public static let frameOverhead = FrameLimits.overhead + 2
    /// The smallest payload chosen: below it a message's own fields would crowd out its data.
    public static let floor = 24
    /// Observations (decayed) needed before the estimate moves the limit.
    static let minimumEvidence = 8.0

    /// The negotiated maximum (the peer's stated `max_payload`): never exceeded.
    public let maximum: Int
    /// The largest payload to use now, `floor` … `maximum`.
    public private(set) var limit: Int
    /// Estimated probability that one byte on the line is corrupted or lost.
    public private(set) var byteErrorRate = 0.0
    /// Whether the estimate (not the start-up ramp) holds the limit at a quarter of the maximum or less:
    /// frames are dying fast.
    public private(set) var isShrunk = false

    /// Upper bound from the start of the session, doubled per delivered frame while none is lost.
    private var rampCeiling: Int
    private var deliveriesInARow = 0
    /// Deliveries in a row that double the ramp: few enough to reach full size within a couple of dozen
    /// frames on a clean line, enough that a noisy line rarely lets a lucky run double it.
    static let deliveriesPerDoubling = 4
    /// Share of frames lost that is not blamed on byte errors.
    public let sizeIndependentLoss: Double

    /// Decayed sums over recent observations: transmissions, of which lost, and the bytes they put on the line.
    private var transmissions = 0.0
    private var losses = 0.0
    private var bytes = 0.0
    /// Each observation keeps (1 − 1/memory) of the weight of those before it.
    private let keep: Double

    /// `memory`: roughly how many observations the estimate remembers.
    public init(maximum: Int, initial: Int = 48, memory: Double = 48, sizeIndependentLoss: Double = 0.1) {
        self.maximum = max(maximum, 1)
        self.rampCeiling = min(max(initial, 1), self.maximum)
        self.limit = rampCeiling
        self.keep = 1 - 1 / max(memory, 2)
        self.sizeIndependentLoss = min(max(sizeIndependentLoss, 0), 0.9)
    }

    /// A transmission of a frame carrying `payload` bytes got through.
    public mutating func recordDelivered(payload: Int) { record(payload: payload, lost: false) }

    /// A transmission of a frame carrying `payload` bytes died on the way (or its acknowledgement did).
    public mutating func recordLost(payload: Int) { record(payload: payload, lost: true) }

    private mutating func record(payload: Int, lost: Bool) {
        deliveriesInARow = lost ? 0 : deliveriesInARow + 1
        if deliveriesInARow >= Self.deliveriesPerDoubling {
            deliveriesInARow = 0
            rampCeiling = min(maximum, rampCeiling * 2)
        }
        transmissions = transmissions * keep + 1
        losses = losses * keep + (lost ? 1 : 0)
        bytes = bytes * keep + Double(max(payload, 0) + Self.frameOverhead)
        let survival = max(1 - losses / transmissions, 0.001)
        // Per-byte loss intensity λ = −ln(1 − e) that explains the frame survival at the mean frame size,
        // once the size-independent share is taken out.
        let lambda = max(0, -naturalLog(min(1, survival / (1 - sizeIndependentLoss)))) / (bytes / transmissions)
        byteErrorRate = 1 - exponential(-lambda)
        // A handful of observations says little: until there are enough, only the start-up ramp limits.
        let best = transmissions >= Self.minimumEvidence ? Self.bestPayload(lambda: lambda, maximum: maximum) : maximum
        isShrunk = best <= maximum / 4
        limit = min(best, rampCeiling)
    }

    /// The payload that maximises payload bytes delivered per byte on the line when each byte is lost with
    /// probability `byteErrorRate`.
    public static func bestPayload(byteErrorRate: Double, maximum: Int) -> Int {
        bestPayload(lambda: -naturalLog(1 - min(max(byteErrorRate, 0), 0.5)), maximum: maximum)
    }

    private static func bestPayload(lambda: Double, maximum: Int) -> Int {
        guard lambda > 0 else { return maximum }
        let h = Double(frameOverhead)
        let best = (-h + (h * h + 4 * h / lambda).squareRoot()) / 2
        guard best.isFinite, best < Double(maximum) else { return maximum }
        return min(max(Int(best.rounded()), floor), maximum)
    }
}

/// ln(y) for 0 < y ≤ 1 (ThrumWire imports nothing, not even libm): scale into [0.5, 1], then the fast
/// series ln(y) = 2·atanh((y − 1)/(y + 1)).
func naturalLog(_ y: Double) -> Double {
    guard y > 0 else { return -.infinity }
    var scaled = y
    var twos = 0.0
    while scaled < 0.5 {
        scaled *= 2
        twos += 1
    }
    let z = (scaled - 1) / (scaled + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    var k = 1.0
    while k < 80 {
        sum += term / k
        term *= z2
        k += 2
    }
    return 2 * sum - twos * 0.693_147_180_559_945_3
}

/// e^x for x ≤ 0: halve into [−0.5, 0], a short series, square back.
func exponential(_ x: Double) -> Double {
    var reduced = x
    var halvings = 0
    while reduced < -0.5, halvings < 64 {
        reduced /= 2
        halvings += 1
    }
    var term = 1.0
    var sum = 1.0
    for n in 1...20 {
        term *= reduced / Double(n)
        sum += term
    }
    for _ in 0..<halvings { sum *= sum }
    return sum
}
