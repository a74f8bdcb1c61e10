import ArgumentParser
import Foundation
import Thrum

/// `thrum flash store|list|read|erase|play`: patterns kept in the board's flash.
struct FlashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flash",
        abstract: "Store patterns in a board's flash slots, list, read back, erase and play them.",
        discussion: "A stored pattern plays without the host (at boot or on a trigger input, once bound).",
        subcommands: [Store.self, List.self, Read.self, Erase.self, Play.self]
    )

    struct Device: ParsableArguments {
        @Option(help: "The board: sim, a device path, or usb:VID:PID[:SERIAL] (default: $THRUM_DEVICE, else sim).")
        var device: String?
    }

    struct Store: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Compile a pattern and store it in a flash slot (atomically: a power cut keeps the old or the new).")
        @Argument(help: "An AHAP or .haptic file.") var file: String
        @Option(help: "The slot, from 0.") var slot: Int
        @OptionGroup var board: Device

        func run() async throws {
            let pattern = try loadPattern(at: URL(fileURLWithPath: file))
            let (file, slot) = (file, slot)
            let bar = ProgressBar(label: "uploading \(URL(fileURLWithPath: file).lastPathComponent)")
            try await withEngine(device: board.device) { engine in
                try await engine.storeInFlash(pattern, slot: slot) { sent, total in bar.update(sent, of: total) }
            }
            bar.finish()
            Console.current.line("\(file): stored in slot \(slot)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the flash slots with their size and hash.")
        @Flag(help: "Print one JSON array instead of text.") var json = false
        @OptionGroup var board: Device

        func run() async throws {
            let slots = try await withEngine(device: board.device) { try await $0.flashSlots() }
            if json {
                let objects = slots.map { slot -> [String: Any] in
                    [
                        "slot": slot.index, "used": slot.isUsed, "size": slot.size,
                        "hash": String(format: "%08x", slot.hash), "boot": slot.playsAtBoot,
                    ]
                }
                let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
                Console.current.line(String(decoding: data, as: UTF8.self))
                return
            }
            for slot in slots {
                let content = slot.isUsed ? String(format: "%6d bytes  crc32c %08x", slot.size, slot.hash) : "empty"
                Console.current.line("slot \(slot.index)  \(content)\(slot.playsAtBoot ? "  (plays at boot)" : "")")
            }
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read a slot back: the bytes are the timeline `thrum compile` writes for the stored pattern.")
        @Argument(help: "The slot, from 0.") var slot: Int
        @Option(name: .shortAndLong, help: "Where to write the timeline.") var output: String
        @OptionGroup var board: Device

        func run() async throws {
            let slot = slot
            let bar = ProgressBar(label: "reading slot \(slot)")
            let bytes = try await withEngine(device: board.device) { engine in
                try await engine.readFlash(slot: slot) { done, total in bar.update(done, of: total) }
            }
            bar.finish()
            do { try Data(bytes).write(to: URL(fileURLWithPath: output)) } catch {
                throw failure("cannot write \(output): \(error.localizedDescription)")
            }
            Console.current.line("slot \(slot): \(bytes.count) bytes written to \(output)")
        }
    }

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Empty a flash slot.")
        @Argument(help: "The slot, from 0.") var slot: Int
        @OptionGroup var board: Device

        func run() async throws {
            let slot = slot
            try await withEngine(device: board.device) { try await $0.eraseFlash(slot: slot) }
            Console.current.line("slot \(slot): erased")
        }
    }

    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a flash slot on the board; returns when it ends.")
        @Argument(help: "The slot, from 0.") var slot: Int
        @OptionGroup var board: Device

        func run() async throws {
            let slot = slot
            try await withEngine(device: board.device) { engine in
                let events = engine.events
                let id = try await engine.playFlash(slot: slot)
                for await event in events {
                    if case .playerFinished(id) = event { return }
                    if case .stopped(let reason) = event {
                        throw HapticEngineError.engineNotRunning("the engine stopped: \(reason)")
                    }
                }
            }
            Console.current.line("slot \(slot): played")
        }
    }
}
