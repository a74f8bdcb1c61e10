import ArgumentParser

/// The root of the `thrum` command tree.
public struct ThrumCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "thrum",
        abstract: "Author, compile and play Core Haptics patterns on custom haptic hardware.",
        discussion: """
            Patterns are AHAP files (Core Haptics' format) or Lofelt/Meta .haptic files; the file type \
            is recognised from content. Start with `thrum demo`, which loads a bundled example, prints \
            its summary and writes its plot.
            """,
        subcommands: [
            DemoCommand.self,
            ValidateCommand.self,
            CompileCommand.self,
            InspectCommand.self,
            RenderCommand.self,
            SimCommand.self,
        ]
    )

    public init() {}
}
