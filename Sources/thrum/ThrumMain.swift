import ArgumentParser
import ThrumCommands

/// The `thrum` executable: the async entry point, so commands that talk to a board can await.
/// Thrum's log messages (swift-log) are printed as the tool's warnings, once bootstrapped here.
@main
enum ThrumMain {
    static func main() async {
        ConsoleLogHandler.bootstrap()
        await ThrumCommand.main(nil)
    }
}
