import ArgumentParser
import Foundation
import ThrumTimeline

/// `thrum inspect TIMELINE`
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a compiled timeline and print its header and records.",
        discussion: """
            Reads a .thrum file (as written by `thrum compile` or read back from a board's flash), checks \
            it the way the board does, and prints every record with its byte offset. Bytes that are not \
            a valid timeline get an error naming what is wrong and at which offset.
            """
    )

    @Argument(help: "The timeline file to decode.")
    var timeline: String

    func run() throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: timeline))
        } catch {
            throw failure("cannot read \(timeline): \(error.localizedDescription)")
        }
        do {
            let decoded = try TimelineDecoder.decode([UInt8](data))
            Console.current.line(decoded.description)
        } catch {
            throw failure("\(timeline): not a valid timeline: \(error)")
        }
    }
}
