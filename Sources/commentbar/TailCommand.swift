import ArgumentParser

/// `commentbar tail`: prints a feed's normalized events as JSON lines.
struct Tail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a feed's events as JSON lines, as the file service replays them.")
    @Option(help: "demo, file, twitch, irc or websocket") var service: String
    @Option(help: "The stream id: channel name, file path, ...") var stream: String
    @Option(help: "Endpoint override (ws://, wss://, irc://, ircs://)") var server: String = ""
    func run() async throws {}
}
