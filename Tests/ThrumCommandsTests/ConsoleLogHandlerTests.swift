import Logging
import Synchronization
import Testing

@testable import ThrumCommands

@Suite("The tool's log handler")
struct ConsoleLogHandlerTests {
    @Test(
        "warnings and errors print as the tool's warnings, the metadata but the device after them; info does not print")
    func format() {
        let printed = Mutex("")
        let console = Console(writeOut: { _ in }, writeErr: { text in printed.withLock { $0 += text } })
        var logger = Logger(label: "thrum.engine") { ConsoleLogHandler(label: $0, console: console) }
        logger[metadataKey: "device"] = "sim"
        logger.warning("1 audio event skipped: the board has no audio output", metadata: ["player": "2"])
        logger.error("the link is down: the device was lost")
        logger.info("started")
        logger.notice("stopped by itself")
        #expect(
            printed.withLock { $0 } == """
                thrum: warning: 1 audio event skipped: the board has no audio output (player: 2)
                thrum: error: the link is down: the device was lost

                """)
    }
}
