import Foundation

/// Runs a program to completion and reports its wall time and peak resident memory, measured by
/// the kernel for that child alone (`wait4`), so figures from several children never mix.
struct ChildRun {
    var seconds: Double
    var peakResidentBytes: Int
    var exitStatus: Int32

    static func run(_ executable: String, _ arguments: [String]) throws -> ChildRun {
        var pid: pid_t = 0
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Keep the child's chatter off the METRIC lines.
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let start = ContinuousClock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ChildRunError.spawn(executable, String(cString: strerror(spawned))) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let exited = (status & 0x7f) == 0
        return ChildRun(
            seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            exitStatus: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
    }
}

enum ChildRunError: Error, CustomStringConvertible {
    case spawn(String, String)
    var description: String {
        switch self {
        case .spawn(let path, let reason): return "cannot start \(path): \(reason)"
        }
    }
}
