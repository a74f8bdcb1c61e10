/// A `Playback` with everything that does not depend on the sample time worked out once:
/// both control layers, the events sorted into groups, the loop pass length.
struct PreparedPlayback: Sendable {
    /// Loop passes shorter than this play as this long, so that the number of passes that overlap
    /// at one instant stays bounded.
    static let minimumPassSeconds = 0.001
    /// At most this many of the newest overlapping passes are summed at one instant.
    static let maximumOverlappingPasses = 4096

    let channel: Int
    let start: Double
    let stop: Double?
    /// Board seconds between loop passes; nil when playing once.
    let passLength: Double?
    /// Latest time after a pass start at which that pass may still sound.
    let passSpan: Double
    let authored: ControlLayer
    let runtime: ControlLayer
    let transients: EventGroup
    let continuous: EventGroup
    let audio: EventGroup
    /// See `Playback.decayReadTick`.
    let decayReadTick: Double?

    /// nil when the playback cannot sound at all (non-finite start time).
    init?(_ playback: Playback) {
        guard playback.startTime.isFinite else { return nil }
        channel = playback.channel
        start = playback.startTime
        decayReadTick = playback.decayReadTick
        stop = playback.stopTime.flatMap { $0.isNaN ? nil : $0 }
        let scale = playback.timeScale
        var pattern = playback.pattern
        let loopLength = playback.loopLengthInPatternTime
        if let loopLength {
            // A pass plays only what starts before the loop end.
            pattern.parameters.removeAll { !($0.time < loopLength) }
            pattern.parameterCurves.removeAll { !($0.time < loopLength) }
            passLength = max(Self.minimumPassSeconds, loopLength * scale)
        } else {
            passLength = nil
        }
        let authoredLayer = ControlLayer(authoredBy: pattern, playbackRate: playback.playbackRate)
        let runtimeLayer = ControlLayer(runtime: playback.runtimeControls)
        authored = authoredLayer
        runtime = runtimeLayer
        var events = pattern.events.enumerated().compactMap { index, event -> PreparedEvent? in
            if let loopLength, !(event.time < loopLength) { return nil }
            return PreparedEvent(event, index: index, timeScale: scale)
        }
        // Envelopes are the same in every pass unless timing controls differ between passes.
        if passLength == nil || !(runtimeLayer.hasTimingEntries || authoredLayer.hasTimingEntries) {
            for index in events.indices where events[index].timingControls != nil {
                events[index].fixedEnvelope = Self.envelope(
                    of: events[index],
                    authored: { id, time in authoredLayer.value(of: id, at: time - playback.startTime) },
                    runtime: runtimeLayer, passStart: playback.startTime, decayReadTick: playback.decayReadTick)
            }
        }
        transients = EventGroup(events.filter { $0.kind == .transient })
        continuous = EventGroup(events.filter { $0.kind == .hapticContinuous })
        audio = EventGroup(events.filter { $0.kind == .audioContinuous || $0.kind == .audioCustom })
        passSpan = max(transients.latestEnd, continuous.latestEnd, audio.latestEnd)
    }

    /// Adds this playback's output at board time `time` to `mix`.
    func accumulate(at time: Double, into mix: inout Mix) {
        let elapsed = time - start
        guard !isBefore(time, start) else { return }
        if let stop, !isBefore(time, stop) { return }
        let controls = Controls(
            intensity: authoredValue(of: .hapticIntensityControl, at: time)
                * runtime.value(of: .hapticIntensityControl, at: time),
            sharpness: authoredValue(of: .hapticSharpnessControl, at: time)
                + runtime.value(of: .hapticSharpnessControl, at: time),
            volume: authoredValue(of: .audioVolumeControl, at: time) * runtime.value(of: .audioVolumeControl, at: time))
        guard let passLength else {
            accumulatePass(local: elapsed, passStart: start, controls: controls, into: &mix)
            return
        }
        let newest = newestPass(elapsed: elapsed, passLength: passLength)
        let oldest = max(
            0, ((elapsed - passSpan) / passLength).rounded(.down),
            newest - Double(Self.maximumOverlappingPasses - 1))
        var pass = oldest
        while pass <= newest {
            let passStart = start + pass * passLength
            accumulatePass(local: time - passStart, passStart: passStart, controls: controls, into: &mix)
            pass += 1
        }
    }

    /// The index of the latest pass that has begun `elapsed` seconds after the playback start.
    private func newestPass(elapsed: Double, passLength: Double) -> Double {
        // The small nudge keeps a time exactly on a pass boundary in the new pass despite rounding.
        max(0, (elapsed / passLength + 1e-9).rounded(.down))
    }

    /// The authored layer's value at board time `time`. A looping playback is the pattern's
    /// entries repeated at every pass start, and supersession applies across passes: before the
    /// first entry of a pass, the previous pass's last entry still holds (SEMANTICS.md §7.3).
    func authoredValue(of id: DynamicParameterID, at time: Double) -> Float {
        guard authored.hasEntries(for: id) else { return id.neutralValue }
        let elapsed = time - start
        guard let passLength else { return authored.value(of: id, at: elapsed) }
        let pass = newestPass(elapsed: elapsed, passLength: passLength)
        let local = elapsed - pass * passLength
        if pass >= 1, !authored.hasEntry(for: id, atOrBefore: local) {
            return authored.value(of: id, at: local + passLength)
        }
        return authored.value(of: id, at: local)
    }

    /// The control values shared by all events of the playback at one instant.
    struct Controls {
        var intensity: Float
        var sharpness: Float
        var volume: Float
    }

    /// One pass: `local` is seconds from the pass start.
    private func accumulatePass(local: Double, passStart: Double, controls: Controls, into mix: inout Mix) {
        guard !isBefore(local, 0), local <= passSpan else { return }
        let (intensityControl, sharpnessControl, volumeControl) = (
            controls.intensity, controls.sharpness, controls.volume
        )

        func addHaptic(_ event: PreparedEvent, gain: Float) {
            guard gain > 0 else { return }
            let intensity = ParameterRange.unit.clamp(event.level * intensityControl) * gain
            mix.addHaptic(
                intensity: intensity, sharpness: ParameterRange.unit.clamp(event.sharpness + sharpnessControl))
        }

        for index in transients.candidates(at: local) {
            let event = transients.events[index]
            addHaptic(event, gain: TransientShape.gain(at: local - event.start))
        }
        for index in continuous.candidates(at: local) {
            let event = continuous.events[index]
            addHaptic(event, gain: envelope(of: event, passStart: passStart).gain(at: local - event.start))
        }
        for index in audio.candidates(at: local) {
            let event = audio.events[index]
            let elapsed = local - event.start
            let gain: Float =
                event.kind == .audioCustom
                ? (!isBefore(elapsed, 0) && isBefore(elapsed, event.duration) ? 1 : 0)
                : envelope(of: event, passStart: passStart).gain(at: elapsed)
            mix.addAudio(volume: ParameterRange.unit.clamp(event.level * volumeControl) * gain)
        }
    }

    /// The envelope of a continuous event in the pass starting at `passStart`. Each segment's
    /// length is fixed by its control values at the moment the segment begins.
    func envelope(of event: PreparedEvent, passStart: Double) -> ContinuousEnvelope {
        event.fixedEnvelope
            ?? Self.envelope(
                of: event, authored: authoredValue, runtime: runtime, passStart: passStart, decayReadTick: decayReadTick
            )
    }

    /// `authored` gives the authored layer's value at a board time.
    private static func envelope(
        of event: PreparedEvent, authored: (DynamicParameterID, Double) -> Float, runtime: ControlLayer,
        passStart: Double, decayReadTick: Double?
    ) -> ContinuousEnvelope {
        guard let ids = event.timingControls else {
            return ContinuousEnvelope(attack: 0, decay: 0, release: 0, duration: event.duration, sustained: true)
        }
        func seconds(_ id: DynamicParameterID, _ authoredValue: Float, at local: Double) -> Double {
            let adjusted =
                authoredValue + authored(id, passStart + local) + runtime.value(of: id, at: passStart + local)
            return EnvelopeTiming.seconds(for: adjusted)
        }
        let attack = seconds(ids.attack, event.attack, at: event.start)
        var decayRead = event.start + attack
        if let tick = decayReadTick, tick > 0 {
            // the first tick at or after, in board time (a tick within a ns of it counts as at it)
            decayRead = ((passStart + decayRead) / tick - 1e-6).rounded(.up) * tick - passStart
        }
        let decay = seconds(ids.decay, event.decay, at: decayRead)
        let release = seconds(ids.release, event.release, at: event.start + event.duration)
        return ContinuousEnvelope(
            attack: attack, decay: decay, release: release, duration: event.duration, sustained: event.sustained)
    }

    /// Pass-relative start and end of every event's output in the first pass, in event order.
    func spans() -> [(event: PreparedEvent, end: Double, envelope: ContinuousEnvelope?)] {
        let all = transients.events + continuous.events + audio.events
        return all.sorted { $0.index < $1.index }.map { event in
            switch event.kind {
            case .transient:
                return (event, event.start + TransientShape.lengthSeconds, nil)
            case .audioCustom:
                return (event, event.start + event.duration, nil)
            case .hapticContinuous, .audioContinuous:
                let envelope = envelope(of: event, passStart: start)
                return (event, event.start + envelope.length, envelope)
            }
        }
    }
}
