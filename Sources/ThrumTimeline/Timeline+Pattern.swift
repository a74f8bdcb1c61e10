import ThrumModel

extension Timeline {
    /// The pattern this timeline plays, with every value dequantised. Each event lists all the
    /// parameters its type uses, so defaults never depend on the reader.
    public func toPattern() -> HapticPattern {
        var pattern = HapticPattern()
        for record in records {
            let time = Quantization.seconds(record.time)
            switch record.body {
            case .event(let shapeNumber, let duration, let waveformNumber):
                let shape = shapes[shapeNumber]
                var event = HapticEvent(
                    shape.type, time: time, duration: Quantization.seconds(duration), parameters: shape.parameters)
                if shape.type == .audioCustom {
                    var waveform = AudioWaveform(
                        useVolumeEnvelope: shape.useVolumeEnvelope, loopEnabled: shape.loopEnabled)
                    switch waveformNumber.map({ waveforms[$0] }) ?? .none {
                    case .none: break
                    case .path(let path): waveform.path = path
                    case .resource(let id): waveform.resourceID = Int(id)
                    }
                    event.waveform = waveform
                }
                pattern.events.append(event)
            case .parameter(let id, let raw):
                pattern.parameters.append(DynamicParameter(id, value: Quantization.controlValue(id, raw), time: time))
            case .curve(let id, let points):
                let controlPoints = points.map {
                    ControlPoint(time: Quantization.seconds($0.time), value: Quantization.controlValue(id, $0.raw))
                }
                pattern.parameterCurves.append(ParameterCurve(id, time: time, controlPoints: controlPoints))
            }
        }
        return pattern
    }
}

extension Timeline.Shape {
    /// The event parameters this shape stands for, dequantised.
    public var parameters: [EventParameter] {
        var list: [EventParameter]
        if type.isHaptic {
            list = [
                EventParameter(.hapticIntensity, Quantization.unitValue(level)),
                EventParameter(.hapticSharpness, Quantization.unitValue(tone)),
            ]
        } else {
            list = [
                EventParameter(.audioVolume, Quantization.unitValue(level)),
                EventParameter(.audioBrightness, Quantization.unitValue(tone)),
                EventParameter(.audioPitch, Quantization.signedValue(pitch)),
                EventParameter(.audioPan, Quantization.signedValue(pan)),
            ]
        }
        list += [
            EventParameter(.attackTime, Quantization.unitValue(attack)),
            EventParameter(.decayTime, Quantization.unitValue(decay)),
            EventParameter(.releaseTime, Quantization.unitValue(release)),
            EventParameter(.sustained, sustained ? 1 : 0),
        ]
        return list
    }
}
