import Foundation

/// `swift run -c release thrum-bench SUITE...` runs the named suites (all when none is named)
/// and prints one `METRIC` line per figure. Exit status 1 when any figure misses its target.
struct Suite {
    var name: String
    var summary: String
    var run: () throws -> [Metric]
}

let suites: [Suite] = [
    // Each suite lives in its own file; add new ones here.
    compileSuite,
    rendererSuite,
    Suite.link,
    transportSuite,
    differentialSuite,
    latencySuite,
    streamingSuite,
    soakSuite,
    qemuSuite,
    rigSuite,
    serviceSuite,
    convertSuite,
]

/// Options some suites read: `--minutes N` (soak), `--board stm32f4|microbit` (qemu).
struct BenchOptions {
    var minutes: Double?
    var board: String?

    nonisolated(unsafe) static var current = BenchOptions()

    /// Takes the options out of `arguments`, leaving the suite names; exits on a malformed one.
    static func parse(_ arguments: inout [String]) {
        if let flag = arguments.firstIndex(of: "--minutes") {
            guard flag + 1 < arguments.count, let minutes = Double(arguments[flag + 1]), minutes > 0 else {
                fail("--minutes needs a positive number of minutes")
            }
            current.minutes = minutes
            arguments.removeSubrange(flag...flag + 1)
        }
        if let flag = arguments.firstIndex(of: "--board") {
            guard flag + 1 < arguments.count, !arguments[flag + 1].hasPrefix("-") else {
                fail("--board needs a board name (qemu: stm32f4 or microbit)")
            }
            current.board = arguments[flag + 1]
            arguments.removeSubrange(flag...flag + 1)
        }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("thrum-bench: \(message)\n".utf8))
        exit(2)
    }
}

var requested = Array(CommandLine.arguments.dropFirst())
BenchOptions.parse(&requested)
if requested.contains("--help") || requested.contains("-h") {
    print("usage: thrum-bench [SUITE...] [--minutes N] [--board stm32f4|microbit]\nsuites:")
    for suite in suites { print("  \(suite.name)\t\(suite.summary)") }
    exit(0)
}
let unknown = requested.filter { name in !suites.contains { $0.name == name } }
if !unknown.isEmpty {
    FileHandle.standardError.write(
        Data(
            "thrum-bench: unknown suite(s) \(unknown.joined(separator: ", ")); known: \(suites.map(\.name).joined(separator: ", "))\n"
                .utf8))
    exit(2)
}
var allPassed = true
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    do {
        for metric in try suite.run() {
            print(metric.line)
            fflush(nil)  // flush stdout so figures appear as they are measured
            allPassed = allPassed && metric.passed
        }
    } catch {
        print("METRIC \(suite.name).error 1 count target none FAIL  # \(error)")
        allPassed = false
    }
}
exit(allPassed ? 0 : 1)
