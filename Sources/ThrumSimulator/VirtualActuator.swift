import Foundation

/// The moving part of one actuator, integrated in small steps while the core's drive is held.
/// Acceleration is in g along the actuator's axis.
struct VirtualActuator: Sendable {
    let model: ActuatorModel
    /// Drive as a fraction of the rated voltage (signed: negative = reverse phase / braking).
    private var level = 0.0
    private var carrier = 0.0
    private var phase = 0.0
    // LRA: displacement and velocity of the normalised mass-spring-damper.
    private var position = 0.0
    private var velocity = 0.0
    // ERM: rotation rate (Hz, signed) and angle (turns).
    private var speed = 0.0
    private(set) var acceleration = 0.0

    init(model: ActuatorModel) { self.model = model }

    /// What the core wrote: Q14 of max_mv, carrier in 0.1 Hz.
    mutating func drive(q14: Int16, frequencyDeciHertz: UInt16) {
        level = Double(q14) / 16384 * Double(model.maxMillivolts) / Double(model.ratedMillivolts)
        carrier = Double(frequencyDeciHertz) / 10
    }

    /// Advances by `dt` seconds (small against the resonance period) and returns the acceleration.
    mutating func step(_ dt: Double) -> Double {
        switch model {
        case .lra(let p):
            // x'' + (w0/Q) x' + w0^2 x = (A/Q) u sin(wt): at resonance the steady acceleration
            // amplitude is A u. Semi-implicit Euler is stable for w0 dt < 2.
            let w0 = 2 * Double.pi * p.resonantFrequency
            let force = p.ratedAcceleration / p.qualityFactor * level * sin(2 * Double.pi * phase)
            let a = force - w0 / p.qualityFactor * velocity - w0 * w0 * position
            velocity += a * dt
            position += velocity * dt
            phase = (phase + carrier * dt).truncatingRemainder(dividingBy: 1)
            acceleration = a
        case .erm(let p):
            // Speed follows the drive with one time constant; the off-centre mass shakes with
            // an amplitude that grows with the square of the speed.
            speed += (p.ratedSpeed * level - speed) * dt / p.timeConstant
            phase = (phase + speed * dt).truncatingRemainder(dividingBy: 1)
            let relative = speed / p.ratedSpeed
            acceleration = p.ratedAcceleration * relative * relative * sin(2 * Double.pi * phase)
        }
        return acceleration
    }
}
