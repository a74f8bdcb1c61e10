/// The fixed shape of a `HapticTransient` (Protocol/SEMANTICS.md §5).
///
/// Full strength from the event time for `holdSeconds`, then a straight fall to zero over
/// `fallSeconds`. The instant onset is what makes a transient crisp (an LRA driver needs full
/// drive at once); 10 ms is about two cycles of a 150–200 Hz LRA; the 10 ms fall avoids an
/// abrupt stop (active braking is the driver's business, not the model's). Both are whole
/// milliseconds so a 1 kHz tick hits the same corners as this renderer.
public enum TransientShape {
    public static let holdSeconds: Double = 0.010
    public static let fallSeconds: Double = 0.010
    /// Total length of a transient's output, independent of its `EventDuration`.
    public static var lengthSeconds: Double { holdSeconds + fallSeconds }

    /// Envelope gain (0…1) at `elapsed` seconds after the event time; 0 outside [0, length).
    public static func gain(at elapsed: Double) -> Float {
        guard !isBefore(elapsed, 0), isBefore(elapsed, lengthSeconds) else { return 0 }
        if isBefore(elapsed, holdSeconds) { return 1 }
        return Float(min(1, max(0, (lengthSeconds - elapsed) / fallSeconds)))
    }
}
