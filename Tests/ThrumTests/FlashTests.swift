import Foundation
import Testing
import Thrum
import ThrumTesting
import ThrumTimeline
import ThrumTransport

@Suite("Flash slots on the embedded simulator")
struct FlashTests {
    static let splash = HapticPattern(events: [
        .transient(at: 0, intensity: 1, sharpness: 0.8),
        .continuous(at: 0.05, duration: 0.3, intensity: 0.6, sharpness: 0.4),
    ])

    @Test("store, list, read back byte for byte, play to the end, erase")
    func roundTrip() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let events = engine.events
        let (listed, read, finished, after) = try await withVirtualTime(clock) {
            try await engine.storeInFlash(Self.splash, slot: 2)
            let listed = try await engine.flashSlots()
            let read = try await engine.readFlash(slot: 2)
            let id = try await engine.playFlash(slot: 2)
            var finished = false
            for await event in events {
                if case .playerFinished(id) = event {
                    finished = true
                    break
                }
            }
            try await engine.eraseFlash(slot: 2)
            return (listed, read, finished, try await engine.flashSlots())
        }
        let compiled = try TimelineCompiler.compile(Self.splash)
        #expect(read == compiled, "the slot holds exactly what the compiler wrote")
        #expect(listed[2].isUsed && listed[2].size == compiled.count)
        #expect(listed.filter(\.isUsed).count == 1)
        #expect(finished)
        #expect(after.allSatisfy { !$0.isUsed })
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("a slot that does not exist, or is empty, is refused naming it")
    func badSlots() async throws {
        let clock = ManualClock()
        let engine = HapticEngine(manualClock: clock)
        try await withVirtualTime(clock) { try await engine.start() }
        let slots = try #require(await engine.capabilities?.flashSlots)
        await #expect(
            throws: HapticEngineError.flash("slot \(slots) does not exist: the board has slots 0…\(slots - 1)")
        ) {
            try await withVirtualTime(clock) { try await engine.storeInFlash(Self.splash, slot: slots) }
        }
        await #expect(throws: HapticEngineError.flash("slot 0 is empty")) {
            try await withVirtualTime(clock) { _ = try await engine.readFlash(slot: 0) }
        }
        try await withVirtualTime(clock) { await engine.stop() }
    }

    @Test("thrum flash store, list, read, erase in separate runs keep the simulator's slots in the cache folder")
    func commandsAcrossRuns() async throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("thrum-flash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let example = packageRoot.appendingPathComponent("Examples/splash.ahap").path
        let readBack = cache.appendingPathComponent("read.thrum").path
        let compiled = cache.appendingPathComponent("compiled.thrum").path
        let environment = ["XDG_CACHE_HOME": cache.path]
        #expect(
            try await runThrumProcess(["flash", "store", example, "--slot", "1"], environment: environment).status == 0)
        let list = try await runThrumProcess(["flash", "list", "--json"], environment: environment)
        let slots = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(slots.count >= 2 && slots[1]["used"] as? Bool == true, "\(list.stdout)")
        #expect(
            try await runThrumProcess(["flash", "read", "1", "-o", readBack], environment: environment).status == 0)
        #expect(try await runThrumProcess(["compile", example, "-o", compiled], environment: environment).status == 0)
        #expect(FileManager.default.contents(atPath: readBack) == FileManager.default.contents(atPath: compiled))
        #expect(try await runThrumProcess(["flash", "erase", "1"], environment: environment).status == 0)
        let empty = try await runThrumProcess(["flash", "read", "1", "-o", readBack], environment: environment)
        #expect(empty.status == 1 && empty.stderr.contains("slot 1 is empty"), "\(empty.stderr)")
    }
}

let packageRoot = Repository.root

/// The `thrum` executable built beside the test bundle (`swift build --build-tests` builds it).
let builtThrum = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "thrum")

/// Runs the `thrum` built beside the test bundle as a child process. The wait happens on a thread
/// of its own: blocking the concurrency pool's few threads would stall every other test meanwhile.
func runThrumProcess(
    _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) async throws -> (status: Int32, stdout: String, stderr: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(
                with: Result { try runThrumProcessWaiting(arguments, environment: environment, input: input) })
        }.start()
    }
}

private func runThrumProcessWaiting(
    _ arguments: [String], environment: [String: String], input: String?
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = builtThrum
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let stdin = Pipe()
    if input != nil { process.standardInput = stdin }
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}
