// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import CommentBarBenchmarks
import FoundationEssentials

/// `commentbar bench-parsers`: the platforms' parse rates (YouTube's recorded `get_live_chat`
/// actions; NDGR segments written with niconico's schema), for `make bench`.
struct BenchParsers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-parsers", abstract: "Measure how many chat messages a second the platform parsers turn into events.")

    @Option(help: "The recorded YouTube actions (a JSON array).")
    var youtubeActions = "Tests/feeds/fixtures/youtube/chat_downloader_actions.json"
    @Option(help: "An NDGR segment (length-delimited ChunkedMessages), read 10 times over.")
    var niconicoSegment = "Tests/feeds/fixtures/niconico/bench_segment.bin"
    @Flag(help: "Print one JSON object.") var json = false

    struct Result: Encodable {
        var youtube_events_per_second: Double
        var youtube_actions_file: String
        var niconico_messages_per_second: Double
    }

    func run() throws {
        let actions = try contents(youtubeActions)
        let segment = try contents(niconicoSegment)
        let youtube = ParserBenchmarks.youtube(actions: actions)
        let niconico = ParserBenchmarks.niconico(segment: segment)
        let result = Result(youtube_events_per_second: youtube.perSecond, youtube_actions_file: youtubeActions,
                            niconico_messages_per_second: niconico.perSecond)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print("YouTube:  \(Int(result.youtube_events_per_second)) events/s (get_live_chat JSON decoded and mapped)")
            print("niconico: \(Int(result.niconico_messages_per_second)) NDGR messages/s (split, decoded, mapped)")
        }
    }

    private func contents(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(path): cannot be read") }
        return Array(data)
    }
}
