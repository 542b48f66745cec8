// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import FoundationEssentials
import NiconicoPlatform
import YouTubePlatform

/// `commentbar bench-parsers`: the platforms' parse rates (YouTube's recorded `get_live_chat`
/// actions; NDGR segments written with niconico's schema), for `make bench`.
struct BenchParsers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-parsers", abstract: "Measure how many chat messages a second the platform parsers turn into events.")

    @Option(help: "The recorded YouTube actions (a JSON array).")
    var youtubeActions = "Tests/feeds/fixtures/youtube/chat_downloader_actions.json"
    @Flag(help: "Print one JSON object.") var json = false

    struct Result: Encodable {
        var youtube_events_per_second: Double
        var youtube_actions_file: String
        var niconico_messages_per_second: Double
    }

    func run() throws {
        guard let actions = FileManager.default.contents(atPath: youtubeActions) else {
            throw ValidationError("\(youtubeActions): cannot be read")
        }
        let response = YouTubeParseBenchmark.response(actions: Array(actions))
        _ = YouTubeParseBenchmark.run(response: response, rounds: 3)  // warm up
        let youtube = YouTubeParseBenchmark.run(response: response, rounds: 200)
        let segment = NiconicoParseBenchmark.segment(count: 1000)
        _ = NiconicoParseBenchmark.run(segment: segment, rounds: 2)
        let niconico = NiconicoParseBenchmark.run(segment: segment, rounds: 50)
        let result = Result(youtube_events_per_second: Double(youtube.events) / max(youtube.seconds, 1e-9),
                            youtube_actions_file: youtubeActions,
                            niconico_messages_per_second: Double(niconico.messages) / max(niconico.seconds, 1e-9))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        } else {
            print("YouTube:  \(Int(result.youtube_events_per_second)) events/s (get_live_chat JSON decoded and mapped)")
            print("niconico: \(Int(result.niconico_messages_per_second)) NDGR messages/s (split, decoded, mapped)")
        }
    }
}
