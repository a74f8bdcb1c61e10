/// Point samples of one quantity: `values[k]` is the value at `startTime + k / sampleRate`.
public struct RenderedLane: Sendable, Hashable {
    public var sampleRate: Double
    public var startTime: Double
    public var values: [Float]

    public init(sampleRate: Double, startTime: Double, values: [Float]) {
        self.sampleRate = sampleRate
        self.startTime = startTime
        self.values = values
    }

    /// The time of sample `index`.
    public func time(ofSample index: Int) -> Double { startTime + Double(index) / sampleRate }
}

/// What one actuator channel does over time: the haptic lanes plus the audio volume lane.
public struct RenderedChannel: Sendable, Hashable {
    /// Summed event intensity, clipped to 0…1.
    public var intensity: RenderedLane
    /// Intensity-weighted mean sharpness, 0 where nothing plays.
    public var sharpness: RenderedLane
    /// Audio events' volume envelope, summed and clipped to 0…1; never drives the actuator.
    public var audioVolume: RenderedLane

    public init(intensity: RenderedLane, sharpness: RenderedLane, audioVolume: RenderedLane) {
        self.intensity = intensity
        self.sharpness = sharpness
        self.audioVolume = audioVolume
    }
}
