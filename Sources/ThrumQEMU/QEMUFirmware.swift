import Foundation
import Subprocess

/// Finding the tools the QEMU board needs, and what to say when one is missing.
public enum QEMUTools {
    /// The executable `name` on `PATH`, or nil.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static let missingQEMUAdvice =
        "qemu-system-arm is not installed: run scripts/ensure-deps (or apt-get install qemu-system-arm)"
    public static let missingCompilerAdvice =
        "arm-none-eabi-gcc is not installed: run scripts/ensure-deps (or apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi)"

    /// What is missing to boot the QEMU board (qemu-system-arm; arm-none-eabi-gcc when the image must
    /// be built), as advice lines; empty when nothing is.
    public static func missing(needCompiler: Bool = true) -> [String] {
        var missing: [String] = []
        if find("qemu-system-arm") == nil { missing.append(missingQEMUAdvice) }
        if needCompiler, find("arm-none-eabi-gcc") == nil || find("make") == nil {
            missing.append(missingCompilerAdvice)
        }
        return missing
    }
}

/// The QEMU images of the ports (``QEMUPort``): where they are, and building them with make.
public enum QEMUFirmware {
    /// The checkout this module was built from: four folders above this file
    /// (Sources/ThrumQEMU/QEMUFirmware.swift), if it still holds the ports; else the current folder
    /// or one of its parents holding `Firmware-ref/ports/stm32f4`.
    public static var repository: URL? {
        let built = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var candidates = [built]
        var folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<8 {
            candidates.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first {
            FileManager.default.fileExists(
                atPath: $0.appendingPathComponent(QEMUPort.stm32f4.portPath + "/Makefile").path)
        }
    }

    public static func buildAdvice(_ port: QEMUPort) -> String {
        "build it with `make -C \(repository?.appendingPathComponent(port.portPath).path ?? port.portPath) QEMU=1`"
    }

    /// The actuator channels an image is built with: `count` DRV2605Ls, behind a TCA9548A when `mux`
    /// (the STM32F4 port's `make THRUM_CHANNELS=count THRUM_MUX=1`, Firmware-ref/ports/stm32f4/README.md).
    public struct Channels: Sendable, Hashable {
        public var count: Int
        public var mux: Bool
        public init(count: Int = 1, mux: Bool = false) {
            self.count = count
            self.mux = mux
        }
        /// One DRV2605L on the port's I2C bus: the default image.
        public static let single = Channels()
        /// `count` DRV2605Ls, one on each of the first ports of a TCA9548A.
        public static func mux(_ count: Int) -> Channels { Channels(count: count, mux: true) }

        /// The image name's suffix, as the port's Makefile makes it.
        var suffix: String { mux ? "-mux\(count)" : count == 1 ? "" : "-ch\(count)" }
        /// The make variables (none for the default image).
        var makeArguments: [String] { self == .single ? [] : ["THRUM_CHANNELS=\(count)", "THRUM_MUX=\(mux ? 1 : 0)"] }
    }

    /// The port's QEMU image (or its bench image; `thrum-qemu-mux4.elf` for four channels behind the
    /// mux), whether built or not.
    public static func image(
        _ port: QEMUPort = .stm32f4, bench: Bool = false, channels: Channels = .single,
        repository: URL? = QEMUFirmware.repository
    ) -> URL? {
        repository?.appendingPathComponent(port.portPath + "/" + imagePath(port, bench: bench, channels: channels))
    }

    /// The image's path in the port's folder.
    static func imagePath(_ port: QEMUPort, bench: Bool, channels: Channels) -> String {
        port.imagePath(bench: bench).dropLast(".elf".count) + channels.suffix + ".elf"
    }

    /// The image, brought up to date with `make -C PORT QEMU=1 [BENCH=1]` and the channels' make
    /// variables (a no-op when nothing changed). Without arm-none-eabi-gcc an image already built is
    /// used as it is; without one either, the error says how to get it. Two makes at once in one port
    /// folder would race on its build folder: callers in one process serialise their calls.
    public static func ensureImage(
        _ port: QEMUPort = .stm32f4, bench: Bool = false, channels: Channels = .single, target: String = "all"
    ) async throws -> URL {
        let portPath = port.portPath
        guard let repository, let image = image(port, bench: bench, channels: channels, repository: repository) else {
            throw QEMUBoardError(
                "cannot find \(portPath) (run from the Thrum checkout, or give the image with --firmware)")
        }
        if QEMUTools.find("arm-none-eabi-gcc") == nil || QEMUTools.find("make") == nil {
            if FileManager.default.fileExists(atPath: image.path) { return image }
            throw QEMUBoardError("no firmware image at \(image.path), and \(QEMUTools.missingCompilerAdvice)")
        }
        let variables = ["QEMU=1", "BENCH=\(bench ? 1 : 0)"] + channels.makeArguments
        return try await make(port, variables + [target], image: imagePath(port, bench: bench, channels: channels))
    }

    /// `image` (a path in the port's folder), once `make ARGUMENTS` there has brought it up to date (a
    /// no-op when nothing changed). The error gives make's output.
    public static func make(_ port: QEMUPort, _ arguments: [String], image: String) async throws -> URL {
        guard let repository else {
            throw QEMUBoardError("cannot find \(port.portPath) (run from the Thrum checkout)")
        }
        let folder = repository.appendingPathComponent(port.portPath)
        let built = folder.appendingPathComponent(image)
        let result = try await Subprocess.run(
            .name("make"), arguments: Arguments(["--no-print-directory", "-C", folder.path] + arguments),
            output: .string(limit: 1 << 20), error: .string(limit: 1 << 20))
        guard result.terminationStatus.isSuccess, FileManager.default.fileExists(atPath: built.path) else {
            throw QEMUBoardError(
                "make \(arguments.joined(separator: " ")) in \(port.portPath) failed (\(result.terminationStatus)): "
                    + result.standardError + result.standardOutput)
        }
        return built
    }

    /// `arm-none-eabi-size -A` of an image: flash (vectors, text, exidx, data, ramfunc) and static RAM
    /// (data, ramfunc, bss, noinit), the way the ports' Makefiles count them.
    public static func size(of image: URL) async throws -> (flash: Int, ram: Int) {
        let result = try await Subprocess.run(
            .name("arm-none-eabi-size"), arguments: ["-A", image.path], output: .string(limit: 1 << 20),
            error: .string(limit: 1 << 16))
        guard result.terminationStatus.isSuccess else {
            throw QEMUBoardError("arm-none-eabi-size -A \(image.path) failed: \(result.standardError)")
        }
        let text = result.standardOutput
        var flash = 0
        var ram = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let size = Int(fields[1]) else { continue }
            switch fields[0] {
            case ".isr_vector", ".text", ".ARM.exidx": flash += size
            case ".data", ".ramfunc":  // copied from flash to RAM at reset (the erase path runs from RAM)
                flash += size
                ram += size
            case ".bss", ".noinit": ram += size
            default: break
            }
        }
        return (flash, ram)
    }
}
