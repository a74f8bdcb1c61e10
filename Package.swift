// swift-tools-version: 6.2
// Thrum: the Core Haptics model on custom haptic hardware.
// Module map and dependency direction: ARCHITECTURE.md (every module depends downward only).
import PackageDescription

let package = Package(
    name: "Thrum",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ThrumModel", targets: ["ThrumModel"]),
        .library(name: "ThrumTimeline", targets: ["ThrumTimeline"]),
        .library(name: "ThrumWire", targets: ["ThrumWire"]),
        .library(name: "ThrumTransport", targets: ["ThrumTransport"]),
        .library(name: "ThrumSimulator", targets: ["ThrumSimulator"]),
        .library(name: "ThrumSerial", targets: ["ThrumSerial"]),
        .library(name: "Thrum", targets: ["Thrum"]),
        .library(name: "ThrumCoreHaptics", targets: ["ThrumCoreHaptics"]),
        .library(name: "ThrumTesting", targets: ["ThrumTesting"]),
        .library(name: "ThrumService", targets: ["ThrumService"]),
        .library(name: "ThrumAudioAnalysis", targets: ["ThrumAudioAnalysis"]),
        .executable(name: "thrum", targets: ["thrum"]),
        .executable(name: "thrum-bench", targets: ["thrum-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // Library logging: Thrum logs through swift-log's `Logger`; the app chooses the backend.
        // 1.11 brought `LogHandler.log(event:)`, which the handlers here implement.
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),
        // `swift package generate-documentation` (scripts/docs); a command plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // `Errno` and `FileDescriptor` (open, read, write, close) for the termios transport.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        // Launching and supervising qemu-system-arm (ThrumQEMU: `thrum sim --qemu`, its tests, thrum-bench).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.0"),
        // `thrum serve` (ThrumService only): HTTP and WebSocket. No default traits: the service reads
        // its settings from its options, not through swift-configuration.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
    ],
    targets: [
        // Pattern model, AHAP and .haptic codecs, validation, reference renderer. No I/O beyond reading files.
        .target(name: "ThrumModel"),
        // Pattern -> compact binary timeline (Protocol/TIMELINE.md) and back.
        .target(name: "ThrumTimeline", dependencies: ["ThrumModel"]),
        // Framing, CRC, messages, link state machine (Protocol/PROTOCOL.md). Pure, no I/O.
        .target(name: "ThrumWire"),
        // Byte transports: in-memory, termios/pty, fault injection.
        .target(name: "ThrumTransport", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // libserialport, found with pkg-config (Debian: libserialport-dev). Only ThrumSerial imports it.
        .systemLibrary(
            name: "CLibSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"]), .brew(["libserialport"])]
        ),
        // Serial ports: enumeration with USB identity, the libserialport transport, the opener
        // that falls back to termios for pseudo-terminals, `usb:VID:PID[:SERIAL]` lookup.
        .target(name: "ThrumSerial", dependencies: ["CLibSerialPort", "ThrumTransport"]),
        // The reference firmware core (Firmware-ref/core, through a symlink) with the simulator's
        // limits; the defines must match include/ThrumFirmwareCore.h (checked by a test).
        .target(
            name: "ThrumFirmwareCore",
            cSettings: [
                .headerSearchPath("core/include"),
                .headerSearchPath("core"),
                .define("THR_MAX_CHANNELS", to: "8u"),
                .define("THR_MAX_PLAYERS", to: "4u"),
                .define("THR_MAX_ACTIVE", to: "128u"),
                .define("THR_MAX_TIMELINES", to: "8u"),
                .define("THR_MAX_SLOTS", to: "8u"),
                .define("THR_AUDIO_SAMPLES", to: "1"),
                .define("THR_RX_HOLD_FRAMES", to: "2u"),
                .define("THR_CHANNEL_PAN", to: "1"),
                .define("THR_TRACE_READ", to: "1"),
            ]
        ),
        // A board simulated around the core: clock, flash, actuators, line, endpoints.
        .target(
            name: "ThrumSimulator",
            dependencies: ["ThrumFirmwareCore", "ThrumTransport", "ThrumWire", "ThrumTimeline", "ThrumModel"]
        ),
        // HapticEngine and players: patterns played on a board over the link (sim, pty, serial, usb:).
        .target(
            name: "Thrum",
            dependencies: [
                "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumSerial", "ThrumSimulator",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The STM32F4 firmware port under QEMU's netduinoplus2: launching qemu-system-arm, the image's
        // build, USART1's trace as it appears. No dependency on the engine.
        .target(
            name: "ThrumQEMU",
            dependencies: ["ThrumTransport", .product(name: "Subprocess", package: "swift-subprocess")]
        ),
        // Core Haptics' names and synchronous signatures (CHHapticEngine, …) over Thrum's engine.
        .target(name: "ThrumCoreHaptics", dependencies: ["Thrum", "ThrumModel", "ThrumWire", "ThrumTransport"]),
        // Test machinery, offered to apps that build on Thrum as well: a manual clock and engines on
        // it, fault-injecting transports, the transport conformance checks, the simulator's
        // differential oracle. No production target depends on it.
        .target(
            name: "ThrumTesting",
            dependencies: [
                "Thrum", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumSimulator",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libsndfile, libsamplerate and kissfft, found with pkg-config. Only ThrumAudioAnalysis imports them.
        .systemLibrary(
            name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]
        ),
        .systemLibrary(
            name: "CSampleRate", pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"]), .brew(["libsamplerate"])]
        ),
        // kissfft without pkg-config: SwiftPM refuses the -D flags kissfft-float.pc gives, and the only one
        // that matters, kiss_fft_scalar=float, is the header's default; the shim names the header's folder.
        .systemLibrary(name: "CKissFFT", providers: [.apt(["libkissfft-dev"]), .brew(["kissfft"])]),
        // Sound to touch: an audio file read in blocks and analysed into a pattern (an intensity and a
        // sharpness curve, transients at onsets) and a waveform summary (Protocol/AUDIO-TO-HAPTICS.md).
        .target(name: "ThrumAudioAnalysis", dependencies: ["ThrumModel", "CSndFile", "CSampleRate", "CKissFFT"]),
        // The plot `thrum render` writes (SVG): lanes from the reference renderer and the simulated actuator.
        .target(name: "ThrumPlot", dependencies: ["ThrumModel", "ThrumTimeline", "ThrumSimulator"]),
        // `thrum serve`: the boards behind a local HTTP and WebSocket service (Protocol/SERVICE.md), and
        // the web pages it serves. The only target that builds Hummingbird; apps that want `Thrum` alone
        // never build it.
        .target(
            name: "ThrumService",
            dependencies: [
                "Thrum", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumPlot",
                "ThrumAudioAnalysis",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Web"), .copy("Examples")]
        ),
        // The command tree of the `thrum` tool, as a library so tests can drive it.
        .target(
            name: "ThrumCommands",
            dependencies: [
                "Thrum", "ThrumModel", "ThrumTimeline", "ThrumSimulator", "ThrumTransport", "ThrumSerial", "ThrumWire",
                "ThrumQEMU", "ThrumPlot", "ThrumService", "ThrumAudioAnalysis",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "thrum",
            dependencies: ["ThrumCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "thrum-bench",
            dependencies: [
                "Thrum", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumSimulator", "ThrumTesting",
                "ThrumQEMU", "ThrumService", "ThrumAudioAnalysis",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ]
        ),
        .testTarget(
            name: "ThrumModelTests",
            dependencies: [
                "ThrumTesting", "ThrumModel", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumTimelineTests",
            dependencies: [
                "ThrumTesting",
                "ThrumTimeline", "ThrumModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumWireTests",
            dependencies: [
                "ThrumTesting", "ThrumWire", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumTransportTests",
            dependencies: [
                "ThrumTesting", "ThrumTransport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ThrumSerialTests",
            dependencies: [
                "ThrumTesting",
                "ThrumSerial", "ThrumTransport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumSimulatorTests",
            dependencies: [
                "ThrumTesting",
                "ThrumSimulator", "ThrumFirmwareCore", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumTests",
            dependencies: [
                "ThrumTesting", "Thrum", "ThrumModel", "ThrumTimeline", "ThrumSimulator", "ThrumTransport", "ThrumWire",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "ThrumCoreHapticsTests", dependencies: ["ThrumTesting", "ThrumCoreHaptics", "Thrum"]),
        // Core Haptics client code as apps write it, compiled in Swift 5 mode (where most apps
        // are) and, through a link to the same folder, in Swift 6 mode.
        .testTarget(
            name: "CoreHapticsClientTests",
            dependencies: ["ThrumTesting", "ThrumCoreHaptics", "Thrum", "ThrumTransport", "ThrumSimulator"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "CoreHapticsClientTests6",
            dependencies: ["ThrumTesting", "ThrumCoreHaptics", "Thrum", "ThrumTransport", "ThrumSimulator"]),
        .testTarget(
            name: "ThrumCommandsTests",
            dependencies: [
                "ThrumTesting", "ThrumCommands", "ThrumModel", "ThrumTimeline", "Thrum", "ThrumTransport",
                "ThrumSimulator", "ThrumQEMU",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The service in-process (HummingbirdTesting, a WebSocket client), its vectors replayed, its
        // security model, and the Python and browser clients against `thrum serve`.
        .testTarget(
            name: "ThrumServiceTests",
            dependencies: [
                "ThrumService", "ThrumTesting", "Thrum", "ThrumModel", "ThrumSimulator",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The audio analysis on sounds the tests synthesise and write with libsndfile.
        .testTarget(name: "ThrumAudioAnalysisTests", dependencies: ["ThrumAudioAnalysis", "ThrumModel", "CSndFile"]),
        // End-to-end tests against the QEMU board (the STM32F4 port under qemu-system-arm).
        .testTarget(
            name: "ThrumQEMUTests",
            dependencies: [
                "ThrumQEMU", "ThrumTesting", "Thrum", "ThrumModel", "ThrumTimeline", "ThrumTransport", "ThrumSimulator",
            ]
        ),
    ]
)
