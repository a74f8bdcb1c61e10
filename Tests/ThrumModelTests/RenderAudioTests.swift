import Testing

@testable import ThrumModel

/// SEMANTICS.md §6: audio events render on the audio lane only.
@Suite struct RenderAudioTests {
    func audioContinuous(volume: Float, release: Float? = nil) -> HapticEvent {
        var parameters = [EventParameter(.audioVolume, volume)]
        if let release { parameters.append(EventParameter(.releaseTime, release)) }
        return HapticEvent(.audioContinuous, time: 0, duration: 0.5, parameters: parameters)
    }

    @Test func audioDoesNotDriveTheActuator() {
        let pattern = HapticPattern(events: [audioContinuous(volume: 0.5)])
        let channel = ReferenceRenderer.render(pattern, sampleRate: 100)
        #expect(channel.intensity.values.allSatisfy { $0 == 0 })
        #expect(channel.audioVolume.values[25] == 0.5)
        #expect(channel.audioVolume.values[50] == 0)
    }

    @Test func audioContinuousHasTheSameEnvelope() {
        let pattern = HapticPattern(events: [audioContinuous(volume: 1, release: 0.5)])
        let playbacks = [Playback(pattern: pattern, startTime: 0)]
        #expect(
            isNear(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.5 + RenderFixture.seconds50 / 2), 0.5))
    }

    @Test func audioVolumeControlMultipliesAndHapticControlsDoNot() {
        let pattern = HapticPattern(
            events: [audioContinuous(volume: 0.8)],
            parameters: [
                DynamicParameter(.audioVolumeControl, value: 0.5, time: 0),
                DynamicParameter(.hapticIntensityControl, value: 0, time: 0),
            ])
        let playbacks = [Playback(pattern: pattern, startTime: 0)]
        #expect(isNear(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.25), 0.4))
    }

    @Test func audioCustomIsItsVolumeForItsDuration() {
        let custom = HapticEvent(
            .audioCustom, time: 0.1, duration: 0.3, parameters: [EventParameter(.audioVolume, 0.7)],
            waveform: AudioWaveform(path: "x.wav"))
        let playbacks = [Playback(pattern: HapticPattern(events: [custom]), startTime: 0, playbackRate: 2)]
        #expect(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.049) == 0)
        #expect(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.05) == 0.7)
        #expect(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.3499) == 0.7)  // length not scaled
        #expect(ReferenceRenderer.audioVolume(playbacks, channel: 0, at: 0.35) == 0)
    }
}
