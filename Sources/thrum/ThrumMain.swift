import ArgumentParser
import ThrumCommands

/// The `thrum` executable: the async entry point, so commands that talk to a board can await.
@main
enum ThrumMain {
    static func main() async {
        await ThrumCommand.main(nil)
    }
}
