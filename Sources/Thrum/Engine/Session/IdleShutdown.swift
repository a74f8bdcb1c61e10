/// Auto shutdown's countdown (Core Haptics' `isAutoShutdownEnabled`). Every activity starts a new
/// generation of the countdown; only the newest may put the board in standby when it runs out.
struct IdleShutdown {
    private(set) var isEnabled = false
    private(set) var delay: Duration = .seconds(2)
    private var generation = 0

    mutating func configure(enabled: Bool, delay: Duration) {
        isEnabled = enabled
        self.delay = delay
    }

    /// Something played or stopped: earlier countdowns are void. Returns the generation of the
    /// countdown to start when the engine `canIdle` (running, nothing playing), nil otherwise.
    mutating func activity(canIdle: Bool) -> Int? {
        generation += 1
        guard isEnabled, canIdle else { return nil }
        return generation
    }

    /// Whether the countdown of `generation` is the newest (no activity since it started).
    func isCurrent(_ generation: Int) -> Bool { generation == self.generation }
}
