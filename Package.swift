// swift-tools-version: 6.1
// Thrum: the Core Haptics model on custom haptic hardware.
// Module map and dependency direction: see ../shared/DESIGN.md (downward only).
import PackageDescription

let package = Package(
    name: "Thrum",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ThrumModel", targets: ["ThrumModel"]),
        .library(name: "ThrumTimeline", targets: ["ThrumTimeline"]),
        .library(name: "ThrumWire", targets: ["ThrumWire"]),
        .library(name: "ThrumTransport", targets: ["ThrumTransport"]),
        .library(name: "ThrumSimulator", targets: ["ThrumSimulator"]),
        .library(name: "ThrumSerial", targets: ["ThrumSerial"]),
        .library(name: "Thrum", targets: ["Thrum"]),
        .library(name: "ThrumCoreHaptics", targets: ["ThrumCoreHaptics"]),
        .executable(name: "thrum", targets: ["thrum"]),
        .executable(name: "thrum-bench", targets: ["thrum-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // Pattern model, AHAP and .haptic codecs, validation, reference renderer. No I/O beyond reading files.
        .target(name: "ThrumModel"),
        // Pattern -> compact binary timeline (Protocol/TIMELINE.md) and back.
        .target(name: "ThrumTimeline", dependencies: ["ThrumModel"]),
        // Framing, CRC, messages, link state machine (Protocol/PROTOCOL.md). Pure, no I/O.
        .target(name: "ThrumWire"),
        // Byte transports: in-memory, termios/pty, fault injection.
        .target(name: "ThrumTransport"),
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
                .define("THR_MAX_CHANNELS", to: "4u"),
                .define("THR_MAX_PLAYERS", to: "4u"),
                .define("THR_MAX_ACTIVE", to: "128u"),
                .define("THR_MAX_TIMELINES", to: "8u"),
                .define("THR_MAX_SLOTS", to: "8u"),
                .define("THR_AUDIO_SAMPLES", to: "1"),
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
            dependencies: ["ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumSerial", "ThrumSimulator"]
        ),
        // Core Haptics' names and synchronous signatures (CHHapticEngine, …) over Thrum's engine.
        .target(name: "ThrumCoreHaptics", dependencies: ["Thrum", "ThrumModel", "ThrumWire"]),
        // The command tree of the `thrum` tool, as a library so tests can drive it.
        .target(
            name: "ThrumCommands",
            dependencies: [
                "Thrum", "ThrumModel", "ThrumTimeline", "ThrumSimulator", "ThrumTransport", "ThrumSerial", "ThrumWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "thrum",
            dependencies: ["ThrumCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "thrum-bench",
            dependencies: ["Thrum", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport", "ThrumSimulator"]
        ),
        .testTarget(
            name: "ThrumModelTests",
            dependencies: ["ThrumModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ThrumTimelineTests",
            dependencies: [
                "ThrumTimeline", "ThrumModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumWireTests",
            dependencies: ["ThrumWire", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ThrumTransportTests",
            dependencies: ["ThrumTransport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ThrumSerialTests",
            dependencies: [
                "ThrumSerial", "ThrumTransport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumSimulatorTests",
            dependencies: [
                "ThrumSimulator", "ThrumFirmwareCore", "ThrumModel", "ThrumTimeline", "ThrumWire", "ThrumTransport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ThrumTests", dependencies: ["Thrum", "ThrumModel", "ThrumTimeline", "ThrumSimulator", "ThrumTransport", "ThrumWire"]
        ),
        .testTarget(name: "ThrumCoreHapticsTests", dependencies: ["ThrumCoreHaptics", "Thrum"]),
        .testTarget(name: "ThrumCommandsTests", dependencies: ["ThrumCommands", "ThrumModel", "ThrumTimeline", "Thrum", "ThrumTransport"]),
    ]
)
