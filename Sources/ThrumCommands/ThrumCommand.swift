import ArgumentParser

/// The root of the `thrum` command tree.
@available(macOS 10.15, macCatalyst 13, iOS 13, tvOS 13, watchOS 6, *)
public struct ThrumCommand: AsyncParsableCommand {
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
            ConvertCommand.self,
            SimCommand.self,
            PlayCommand.self,
            InfoCommand.self,
            FlashCommand.self,
            PortsCommand.self,
            StreamCommand.self,
            ServeCommand.self,
        ]
    )

    public init() {}
}
