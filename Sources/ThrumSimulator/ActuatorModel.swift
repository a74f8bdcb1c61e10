import ThrumFirmwareCore

/// A virtual actuator: what the core is told (kind, resonance, ratings) and how the simulated
/// mass moves when driven.
public enum ActuatorModel: Sendable, Hashable {
    /// A linear resonant actuator: a driven mass-spring-damper.
    case lra(LRAParameters = LRAParameters())
    /// An eccentric rotating mass: a first-order motor spinning an off-centre mass.
    case erm(ERMParameters = ERMParameters())

    public struct LRAParameters: Sendable, Hashable {
        public var resonantFrequency = 170.0
        public var qualityFactor = 8.0
        /// Acceleration amplitude (g) at resonance in steady state at the rated voltage.
        public var ratedAcceleration = 1.5
        public var ratedMillivolts = 2000
        public var maxMillivolts = 3000
        public init(
            resonantFrequency: Double = 170, qualityFactor: Double = 8, ratedAcceleration: Double = 1.5,
            ratedMillivolts: Int = 2000, maxMillivolts: Int = 3000
        ) {
            self.resonantFrequency = resonantFrequency
            self.qualityFactor = qualityFactor
            self.ratedAcceleration = ratedAcceleration
            self.ratedMillivolts = ratedMillivolts
            self.maxMillivolts = maxMillivolts
        }
    }

    public struct ERMParameters: Sendable, Hashable {
        /// Mechanical time constant of spin-up and spin-down (seconds).
        public var timeConstant = 0.035
        /// Rotation rate at the rated voltage (Hz).
        public var ratedSpeed = 180.0
        /// Acceleration amplitude (g) at the rated speed.
        public var ratedAcceleration = 1.2
        public var ratedMillivolts = 3000
        public var maxMillivolts = 3600
        public init(
            timeConstant: Double = 0.035, ratedSpeed: Double = 180, ratedAcceleration: Double = 1.2,
            ratedMillivolts: Int = 3000, maxMillivolts: Int = 3600
        ) {
            self.timeConstant = timeConstant
            self.ratedSpeed = ratedSpeed
            self.ratedAcceleration = ratedAcceleration
            self.ratedMillivolts = ratedMillivolts
            self.maxMillivolts = maxMillivolts
        }
    }

    public var ratedMillivolts: Int {
        switch self {
        case .lra(let p): p.ratedMillivolts
        case .erm(let p): p.ratedMillivolts
        }
    }

    public var maxMillivolts: Int {
        switch self {
        case .lra(let p): p.maxMillivolts
        case .erm(let p): p.maxMillivolts
        }
    }

    func problems() -> [String] {
        var found: [String] = []
        if ratedMillivolts < 1 || ratedMillivolts > 65535 {
            found.append("ratedMillivolts \(ratedMillivolts): must be 1...65535")
        }
        if maxMillivolts < ratedMillivolts || maxMillivolts > 65535 {
            found.append("maxMillivolts \(maxMillivolts): must be ratedMillivolts...65535")
        }
        switch self {
        case .lra(let p):
            if !(p.resonantFrequency >= 10 && p.resonantFrequency <= 1000) {
                found.append("resonantFrequency \(p.resonantFrequency): must be 10...1000 Hz")
            }
            if !(p.qualityFactor >= 0.5 && p.qualityFactor <= 100) {
                found.append("qualityFactor \(p.qualityFactor): must be 0.5...100")
            }
            if !(p.ratedAcceleration > 0 && p.ratedAcceleration <= 100) {
                found.append("ratedAcceleration \(p.ratedAcceleration): must be in (0, 100] g")
            }
        case .erm(let p):
            if !(p.timeConstant >= 0.001 && p.timeConstant <= 1) {
                found.append("timeConstant \(p.timeConstant): must be 0.001...1 s")
            }
            if !(p.ratedSpeed >= 1 && p.ratedSpeed <= 1000) {
                found.append("ratedSpeed \(p.ratedSpeed): must be 1...1000 Hz")
            }
            if !(p.ratedAcceleration > 0 && p.ratedAcceleration <= 100) {
                found.append("ratedAcceleration \(p.ratedAcceleration): must be in (0, 100] g")
            }
        }
        return found
    }

    var coreChannel: thr_channel_config {
        var channel = thr_channel_config()
        switch self {
        case .lra(let p):
            channel.kind = UInt8(THR_ACTUATOR_KIND_LRA.rawValue)
            channel.resonant_dhz = UInt16((p.resonantFrequency * 10).rounded())
        case .erm:
            channel.kind = UInt8(THR_ACTUATOR_KIND_ERM.rawValue)
            channel.resonant_dhz = 0
        }
        channel.rated_mv = UInt16(ratedMillivolts)
        channel.max_mv = UInt16(maxMillivolts)
        return channel
    }
}
