import ArgumentParser

@main
struct CommentBarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commentbar",
        abstract: "Renders a live stream's comment bar: comments, gifts, clock, viewers, mic and avatar.",
        subcommands: [Render.self, Bench.self, Serve.self, Tail.self, Services.self]
    )
}
