import Foundation
import ThrumTransport

/// The trace's lines (USART1's, or semihosting's on the micro:bit) as they appear in the QEMU board's
/// actuator log, each stamped with the host's monotonic clock when this reader saw it. A thread polls
/// the file every `interval` (1 ms by default): QEMU writes USART1's bytes as the guest sends them and
/// a semihosting line whole, so the stamp is the guest's moment plus at most the polling interval and
/// the host's scheduling delay.
public final class ActuatorTrace: Sendable {
    /// One line of the trace.
    public struct Line: Sendable, Equatable {
        public var text: String
        /// `ContinuousClock` instant at which the line was first seen whole.
        public var seen: ContinuousClock.Instant
    }

    /// A DRV2605L register write, from `i2c 5a RR VV`.
    public struct RegisterWrite: Sendable, Equatable {
        public var register: UInt8
        public var value: UInt8
        public var seen: ContinuousClock.Instant
        /// On an image with a TCA9548A (`i2c 70 VV` lines): its control register when the write was
        /// made, whose bit n connects port n's chip; nil before the first select or without a mux.
        public var muxControl: UInt8? = nil
        /// RTP_INPUT's value as the signed level the driver writes.
        public var signedValue: Int { Int(Int8(bitPattern: value)) }
    }

    public let file: URL
    private let state: Locked<State>

    private struct State {
        var lines: [Line] = []
        var partial: [UInt8] = []
        var offset: UInt64 = 0
        var stopped = false
    }

    /// Starts following `file` from its current end (`fromStart`: from its beginning).
    public init(file: URL, fromStart: Bool = false, interval: Duration = .milliseconds(1)) {
        self.file = file
        let state = Locked(State())
        self.state = state
        if !fromStart, let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let size = attributes[.size] as? NSNumber
        {
            state.withLock { $0.offset = size.uint64Value }
        }
        let path = file.path
        let thread = Thread {
            let handle = FileHandle(forReadingAtPath: path)
            defer { try? handle?.close() }
            let pause = Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds)
            while true {
                let (stopped, offset) = state.withLock { ($0.stopped, $0.offset) }
                if stopped { return }
                var data = Data()
                if let handle {
                    try? handle.seek(toOffset: offset)
                    data = (try? handle.readToEnd()) ?? Data()
                }
                if !data.isEmpty {
                    let now = ContinuousClock.now
                    state.withLock { state in
                        state.offset += UInt64(data.count)
                        for byte in data {
                            if byte == 10 {
                                state.lines.append(
                                    Line(text: String(decoding: state.partial, as: UTF8.self), seen: now))
                                state.partial.removeAll(keepingCapacity: true)
                            } else {
                                state.partial.append(byte)
                            }
                        }
                    }
                }
                Thread.sleep(forTimeInterval: pause)
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    deinit { stop() }

    public func stop() { state.withLock { $0.stopped = true } }

    /// Every line seen so far.
    public var lines: [Line] { state.withLock { $0.lines } }

    /// The DRV2605L (address 0x5a) register writes seen so far, each with the TCA9548A (0x70) selection
    /// it was made behind.
    public var registerWrites: [RegisterWrite] {
        var control: UInt8?
        return lines.compactMap { line in
            let fields = line.text.split(separator: " ")
            guard fields.count >= 3, fields[0] == "i2c" else { return nil }
            if fields.count == 3, fields[1] == "70", let value = UInt8(fields[2], radix: 16) {
                control = value
                return nil
            }
            guard fields.count == 4, fields[1] == "5a", let register = UInt8(fields[2], radix: 16),
                let value = UInt8(fields[3], radix: 16)
            else { return nil }
            return RegisterWrite(register: register, value: value, seen: line.seen, muxControl: control)
        }
    }

    /// RTP_INPUT (register 0x02) writes seen so far.
    public var rtpWrites: [RegisterWrite] { registerWrites.filter { $0.register == 0x02 } }

    /// RTP_INPUT writes to the chip on mux port `port` (the writes made while the mux connected
    /// that port alone).
    public func rtpWrites(port: Int) -> [RegisterWrite] { rtpWrites.filter { $0.muxControl == UInt8(1) << port } }

    /// The values of the `boot epoch N` lines seen so far.
    public var bootEpochs: [Int] { numbers(after: "boot epoch ") }

    /// The values of the `tick max N` lines seen so far (STM32F4).
    public var tickMaxima: [Int] { numbers(after: "tick max ") }

    /// The values of the `stack max N` lines seen so far: the stack's deepest reach in bytes (micro:bit).
    public var stackMaxima: [Int] { numbers(after: "stack max ") }

    private func numbers(after prefix: String) -> [Int] {
        lines.compactMap { line in line.text.hasPrefix(prefix) ? Int(line.text.dropFirst(prefix.count)) : nil }
    }

    /// Polls `condition` every 5 ms until it holds or `timeout` passes; whether it held.
    public func wait(
        for timeout: Duration, until condition: (ActuatorTrace) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition(self)
    }
}
