import Foundation
import ThrumFirmwareCore
import ThrumWire

/// One board: the C core with simulated hardware around it. Time passes only through
/// `advance(to:)`, so a test drives it deterministically (a manual clock) and `SimulatorServer`
/// drives it from real time. That time is the board's own clock: a host's time becomes board time
/// through `configuration.crystal` (`SimulatorServer` and `SimulatedHost` do so). The line's
/// delays are counted on the board's clock too (a microsecond per second of delay at 1000 ppm, 30 at 3 %).
/// Not thread-safe: one owner at a time.
public final class SimulatedBoard {
    public let configuration: BoardConfiguration
    public let flash: SimulatedFlash?
    /// Board time, microseconds since power-on, as the board's crystal counts them.
    public private(set) var time: UInt64 = 0
    /// Rendered ticks, every channel (when `recordsTrace`).
    public private(set) var trace: [TraceSample] = []
    public var recordsTrace = true
    /// Trace samples kept at most (older ones stay, newer are counted in `traceDropped`).
    public var traceCapacity = 4_000_000

    /// The trace so far, handed over and cleared (a running server passes it to its ``TraceTap``).
    public func takeTrace() -> [TraceSample] {
        defer { trace.removeAll(keepingCapacity: true) }
        return trace
    }
    public private(set) var traceDropped = 0
    /// What the audio output played (SEMANTICS.md §6.4), a block per tick that was not silent
    /// (when `recordsTrace`); ticks missing between blocks were silent.
    public private(set) var audio: [AudioBlock] = []

    /// The audio blocks so far, handed over and cleared.
    public func takeAudio() -> [AudioBlock] {
        defer { audio.removeAll(keepingCapacity: true) }
        return audio
    }
    /// Actuator acceleration per channel, at `accelerationRate` (when `recordsAcceleration`).
    public private(set) var acceleration: [AccelerationTrace]
    public var recordsAcceleration = false
    public var accelerationCapacity = 20_000_000
    /// Integration rate of the virtual actuators (steps per second).
    public let accelerationRate: Double

    let core: UnsafeMutablePointer<thr_core>
    private let hal: UnsafeMutablePointer<thr_hal>
    private let config: UnsafeMutablePointer<thr_board_config>
    private let memory: UnsafeMutablePointer<UInt8>
    /// The texts `config` points to (firmware, board, serial, channel names).
    private let configStrings = CStringCopies()
    private var actuators: [VirtualActuator]
    private var actuatorTime: UInt64 = 0
    private var hostToBoard: LineDirection
    private var boardToHost: LineDirection
    /// What TRACE_READ reads: the last `BoardConfiguration.traceSeconds` of each channel.
    private var traceMemory: TraceMemory

    /// Builds and boots a board. `flash` defaults to fresh flash of the configuration's size.
    public init(
        _ configuration: BoardConfiguration, flash: SimulatedFlash? = nil, accelerationRate: Double = 20_000
    ) throws {
        let problems = configuration.problems()
        guard problems.isEmpty else { throw SimulatorError("board configuration: " + problems.joined(separator: "; ")) }
        guard thrum_sim_core_size() == MemoryLayout<thr_core>.size else {
            throw SimulatorError(
                "ThrumFirmwareCore: C and Swift disagree on sizeof(thr_core); Package.swift defines and ThrumFirmwareCore.h differ"
            )
        }
        if let flash, flash.bytes.count != configuration.flashSize {
            throw SimulatorError(
                "flash: \(flash.bytes.count) bytes, the configuration needs \(configuration.flashSize)")
        }
        self.configuration = configuration
        self.flash =
            try flash
            ?? (configuration.slotCount > 0
                ? SimulatedFlash(size: configuration.flashSize, sectorSize: configuration.flashSectorSize) : nil)
        self.accelerationRate = accelerationRate
        traceMemory = TraceMemory(
            channels: configuration.channels.count, capacity: configuration.traceSeconds * configuration.tickRate,
            tick: UInt32(1_000_000 / max(1, configuration.tickRate)))
        actuators = configuration.channels.map(VirtualActuator.init(model:))
        acceleration = configuration.channels.map { _ in AccelerationTrace(sampleRate: accelerationRate) }
        hostToBoard = LineDirection(model: configuration.line, way: .hostToBoard)
        boardToHost = LineDirection(model: configuration.line, way: .boardToHost)

        core = .allocate(capacity: 1)
        core.initialize(to: thr_core())
        hal = .allocate(capacity: 1)
        hal.initialize(to: thr_hal())
        config = .allocate(capacity: 1)
        config.initialize(to: thr_board_config())
        memory = .allocate(capacity: configuration.timelineMemory)
        memory.initialize(repeating: 0, count: configuration.timelineMemory)
        fillConfig()
        installHAL()
        let status = thr_core_init(core, hal, config, memory, UInt32(configuration.timelineMemory))
        guard status == THR_STATUS_OK else {
            throw SimulatorError("thr_core_init refused the configuration (status \(status.rawValue))")
        }
        reportMissingActuators()
    }

    /// What a driver does at boot when its chip does not answer (drivers/drv2605l.c).
    private func reportMissingActuators() {
        for channel in configuration.missingActuators.sorted() where channel < configuration.channels.count {
            thr_core_channel_fault(core, UInt8(channel), THR_FAULT_ACTUATOR_MISSING)
        }
    }

    deinit {
        core.deinitialize(count: 1)
        core.deallocate()
        hal.deallocate()
        config.deallocate()
        memory.deallocate()
    }

    /// Restarts the core over the same flash (power restored), keeping board time running.
    public func reboot() throws {
        flash?.restorePower()
        let status = thr_core_init(core, hal, config, memory, UInt32(configuration.timelineMemory))
        guard status == THR_STATUS_OK else {
            throw SimulatorError("thr_core_init failed on reboot (status \(status.rawValue))")
        }
        reportMissingActuators()
    }

    // MARK: time

    /// Runs the board until `target` (microseconds): delivers arrived bytes, renders every tick
    /// due, integrates the actuators.
    public func advance(to target: UInt64) {
        guard target >= time else { return }
        repeat {
            var next = min(nextTick, target)
            if let arrival = hostToBoard.nextArrival, arrival > time, arrival < next { next = arrival }
            integrateActuators(to: max(next, time))
            time = max(next, time)
            deliverArrivedBytes()
            thr_core_poll(core)
        } while time < target
    }

    /// The core's next tick as full board time (the core keeps wrap-safe 32-bit times).
    private var nextTick: UInt64 {
        let ahead = Int32(bitPattern: core.pointee.next_tick &- UInt32(truncatingIfNeeded: time))
        return ahead <= 0 ? time : time + UInt64(ahead)
    }

    public func advance(byMicroseconds duration: UInt64) { advance(to: time + duration) }

    // MARK: the line (deterministic in-process endpoint)

    /// The host sends bytes now; they reach the core after the line's delay.
    public func hostSend(_ bytes: some Sequence<UInt8>) { hostToBoard.send(bytes, at: time) }

    /// Bytes the board sent that have reached the host by now.
    public func hostReceive() -> [UInt8] { boardToHost.receive(upTo: time) }

    /// When the next byte in flight to the host arrives (nil when none is in flight).
    public var nextByteToHost: UInt64? { boardToHost.nextArrival }

    private func deliverArrivedBytes() {
        // The core's receive ring holds THR_RX_RING bytes: poll between pieces, as a main loop
        // keeps up with a UART.
        let bytes = hostToBoard.receive(upTo: time)
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int(THR_RX_RING) / 2)
            for byte in bytes[index..<end] { thr_core_rx_byte(core, byte) }
            index = end
            if index < bytes.count { thr_core_poll(core) }
        }
    }

    // MARK: the core's direct API

    /// Gives the core for calls this type does not wrap (single-threaded, do not keep it).
    public func withCore<R>(_ body: (UnsafeMutablePointer<thr_core>) throws -> R) rethrows -> R { try body(core) }

    /// Loads a complete timeline (validated by the core); returns its handle.
    public func load(timeline bytes: [UInt8]) throws -> UInt8 {
        var handle: UInt8 = 0
        let status = bytes.withUnsafeBufferPointer { thr_store_load(core, $0.baseAddress, UInt32($0.count), &handle) }
        guard status == THR_STATUS_OK else { throw SimulatorError("thr_store_load: \(Self.describe(status))") }
        return handle
    }

    /// Starts `player` on a loaded timeline at board time `at` (microseconds) from `position` (µs).
    public func start(player: UInt8, handle: UInt8, at: UInt64, position: UInt32 = 0) throws {
        try check(thr_player_start(core, player, handle, UInt32(truncatingIfNeeded: at), position), "thr_player_start")
    }

    /// Frees a loaded timeline (no player may be using it).
    public func free(_ handle: UInt8) throws {
        try check(thr_store_free(core, handle), "thr_store_free")
    }

    /// Stops `player` at board time `at` (microseconds): silent from that tick on.
    public func stop(player: UInt8, at: UInt64) throws {
        try check(thr_player_stop(core, player, UInt32(truncatingIfNeeded: at)), "thr_player_stop")
    }

    public func check(_ status: thr_status, _ what: String) throws {
        guard status == THR_STATUS_OK else { throw SimulatorError("\(what): \(Self.describe(status))") }
    }

    /// The core's status codes are the wire's (thr_core.h), so ThrumWire's enum names them.
    static func describe(_ status: thr_status) -> String {
        let raw = status.rawValue
        return WireStatus(rawValue: UInt8(truncatingIfNeeded: raw)).name.map { "\($0) (\(raw))" } ?? "status \(raw)"
    }

    // MARK: hardware callbacks

    fileprivate func traced(_ sample: thr_trace_sample) {
        traceMemory.record(channel: Int(sample.channel), time: sample.time_us, intensityQ15: sample.intensity_q15)
        guard recordsTrace else { return }
        guard trace.count < traceCapacity else {
            traceDropped += 1
            return
        }
        trace.append(
            TraceSample(
                time: time - UInt64(UInt32(truncatingIfNeeded: time) &- sample.time_us), channel: Int(sample.channel),
                intensityQ15: sample.intensity_q15, sharpnessQ15: sample.sharpness_q15, audioQ15: sample.audio_q15,
                driveQ14: sample.drive_q14, frequencyDeciHertz: sample.frequency_dhz))
    }

    fileprivate func audioWritten(_ timeUS: UInt32, _ samples: UnsafeBufferPointer<Int16>) {
        guard recordsTrace, samples.contains(where: { $0 != 0 }), audio.count < traceCapacity else { return }
        audio.append(
            AudioBlock(time: time - UInt64(UInt32(truncatingIfNeeded: time) &- timeUS), samples: Array(samples)))
    }

    fileprivate func actuatorWrite(_ channel: UInt8, _ drive: Int16, _ frequency: UInt16) {
        guard Int(channel) < actuators.count else { return }
        actuators[Int(channel)].drive(q14: drive, frequencyDeciHertz: frequency)
    }

    fileprivate func serialWrite(_ bytes: UnsafeBufferPointer<UInt8>) { boardToHost.send(bytes, at: time) }

    private func integrateActuators(to target: UInt64) {
        // Nothing reads the actuators' motion unless it is recorded: skip the physics.
        guard recordsAcceleration else {
            actuatorTime = max(actuatorTime, target)
            return
        }
        let step = 1_000_000 / accelerationRate
        while Double(target - actuatorTime) >= step {
            let dt = step / 1_000_000
            for index in actuators.indices {
                let value = actuators[index].step(dt)
                if acceleration[index].values.count < accelerationCapacity {
                    acceleration[index].values.append(Float(value))
                }
            }
            actuatorTime += UInt64(step.rounded(.down))
            if step.rounded(.down) == 0 { break }
        }
    }

    private func fillConfig() {
        let c = configuration
        config.pointee.firmware = configStrings.copy(c.firmware)
        config.pointee.board = configStrings.copy(c.board)
        config.pointee.serial = configStrings.copy(c.serial)
        config.pointee.tick_hz = UInt32(c.tickRate)
        config.pointee.channel_count = UInt8(c.channels.count)
        withUnsafeMutableBytes(of: &config.pointee.channels) { raw in
            let channels = raw.bindMemory(to: thr_channel_config.self)
            for (index, model) in c.channels.enumerated() {
                channels[index] = model.coreChannel
                channels[index].name = c.channelNames[index].map(configStrings.copy)
            }
        }
        config.pointee.flash_size = UInt32(c.flashSize)
        config.pointee.flash_sector_size = UInt32(c.flashSectorSize)
        config.pointee.slot_count = UInt8(c.slotCount)
        config.pointee.slot_size = UInt32(c.slotSize)
        config.pointee.keepalive_ms = UInt16(c.keepAliveMilliseconds)
        config.pointee.fade_ms = UInt16(c.fadeMilliseconds)
        config.pointee.audio_output = c.audioOutput.rawValue
        config.pointee.audio_rate_hz = UInt32(c.audioRate)
        config.pointee.trigger_inputs = UInt8(c.triggerInputs)
        config.pointee.boot_epoch = c.bootEpoch
    }

    private func installHAL() {
        hal.pointee.ctx = Unmanaged.passUnretained(self).toOpaque()
        hal.pointee.now_us = { ctx in UInt32(truncatingIfNeeded: board(ctx).time) }
        hal.pointee.actuator_write = { ctx, channel, drive, frequency in
            board(ctx).actuatorWrite(channel, drive, frequency)
        }
        hal.pointee.flash_read = { ctx, address, out, length in
            guard let out, let bytes = board(ctx).flash?.read(Int(address), Int(length)) else { return -1 }
            bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: $0.count) }
            return 0
        }
        hal.pointee.flash_write = { ctx, address, data, length in
            guard let data, let flash = board(ctx).flash else { return -1 }
            return flash.write(Int(address), UnsafeBufferPointer(start: data, count: Int(length))) ? 0 : -1
        }
        hal.pointee.flash_erase = { ctx, address in
            guard let flash = board(ctx).flash else { return -1 }
            return flash.erase(sector: Int(address)) ? 0 : -1
        }
        hal.pointee.serial_write = { ctx, data, length in
            guard let data else { return }
            board(ctx).serialWrite(UnsafeBufferPointer(start: data, count: Int(length)))
        }
        hal.pointee.critical_enter = nil
        hal.pointee.critical_exit = nil
        hal.pointee.trace = { ctx, sample in
            guard let sample else { return }
            board(ctx).traced(sample.pointee)
        }
        hal.pointee.trace_read = { ctx, channel, from, out, max in
            guard let from, let out else { return 0 }
            let (start, samples) = board(ctx).traceMemory.read(
                channel: Int(channel), from: from.pointee, limit: Int(max))
            from.pointee = start
            for (index, sample) in samples.enumerated() { out[index] = sample }
            return UInt16(samples.count)
        }
        hal.pointee.audio_write = { ctx, time, samples, count in
            guard let samples else { return }
            board(ctx).audioWritten(time, UnsafeBufferPointer(start: samples, count: Int(count)))
        }
    }
}

private func board(_ ctx: UnsafeMutableRawPointer?) -> SimulatedBoard {
    Unmanaged<SimulatedBoard>.fromOpaque(ctx!).takeUnretainedValue()
}
