import Foundation

/// A firmware port that runs under QEMU, and the QEMU machine it runs on: where its source and
/// images are, how QEMU is started for it, and where its trace goes.
/// - `stm32f4`: `Firmware-ref/ports/stm32f4` on `netduinoplus2`; the link on USART2 (QEMU's second
///   serial port), the trace on USART1 (the first), into a file.
/// - `microbit`: `Firmware-ref/ports/nrf51-microbit` (the budget build on a Cortex-M0) on `microbit`;
///   the link on UART0 (the only serial port), the trace through semihosting into a file (QEMU's
///   TWI is a stub, so the port's DRV2605L is a stand-in that reports its register writes there).
public enum QEMUPort: String, Sendable, CaseIterable, CustomStringConvertible {
    case stm32f4
    case microbit

    public var description: String { rawValue }

    /// QEMU's `-M` machine.
    public var machine: String {
        switch self {
        case .stm32f4: "netduinoplus2"
        case .microbit: "microbit"
        }
    }

    /// The port's folder in the checkout.
    public var portPath: String {
        switch self {
        case .stm32f4: "Firmware-ref/ports/stm32f4"
        case .microbit: "Firmware-ref/ports/nrf51-microbit"
        }
    }

    /// The QEMU image `make QEMU=1 [BENCH=1]` builds, under the port's folder.
    public func imagePath(bench: Bool) -> String {
        switch self {
        case .stm32f4: "build/" + (bench ? "thrum-qemu-bench.elf" : "thrum-qemu.elf")
        case .microbit: "build/" + (bench ? "thrum-microbit-qemu-bench.elf" : "thrum-microbit-qemu.elf")
        }
    }

    /// The board name the QEMU image reports in INFO.
    public var boardName: String {
        switch self {
        case .stm32f4: "qemu-netduinoplus2"
        case .microbit: "qemu-microbit"
        }
    }

    /// What carries the trace lines, for messages.
    public var traceChannel: String {
        switch self {
        case .stm32f4: "USART1"
        case .microbit: "semihosting"
        }
    }

    /// The serial port whose pty is the board's link, as QEMU labels it.
    var linkLabel: String {
        switch self {
        case .stm32f4: "serial1"
        case .microbit: "serial0"
        }
    }

    /// The arguments after the executable: the machine, no display or monitor, the image, the link on
    /// a pty and the trace into `traceFile`, then `extra`.
    public func arguments(firmware: URL, traceFile: URL, extra: [String] = []) -> [String] {
        let common = ["-M", machine, "-display", "none", "-monitor", "none", "-kernel", firmware.path]
        switch self {
        case .stm32f4:
            return common + ["-serial", "file:" + traceFile.path, "-serial", "pty"] + extra
        case .microbit:
            return common + [
                "-serial", "pty", "-chardev", "file,id=trace,path=" + traceFile.path,
                "-semihosting-config", "enable=on,target=native,chardev=trace",
            ] + extra
        }
    }

    /// The arguments that run a bench image under `-icount shift=0`, its METRIC lines on stdout
    /// (STM32F4: USART1) or stderr (micro:bit: semihosting without a chardev).
    public func benchArguments(image: URL) -> [String] {
        let common = [
            "-M", machine, "-display", "none", "-monitor", "none", "-icount", "shift=0", "-semihosting-config",
            "enable=on,target=native", "-kernel", image.path,
        ]
        switch self {
        case .stm32f4: return common + ["-serial", "stdio", "-serial", "null"]
        case .microbit: return common + ["-serial", "null"]
        }
    }
}
