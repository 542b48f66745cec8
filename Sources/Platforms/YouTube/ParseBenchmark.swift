// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import FoundationEssentials

/// For `commentbar bench-parsers`: how many events a second the YouTube path makes from
/// `get_live_chat` responses (JSON decoding and action mapping), on recorded actions.
package enum YouTubeParseBenchmark {
    /// A `get_live_chat` response around `actions` (a JSON array of recorded actions).
    package static func response(actions: [UInt8]) -> [UInt8] {
        Array(#"{"continuationContents":{"liveChatContinuation":{"continuations":[{"timedContinuationData":{"continuation":"x","timeoutMs":1000}}],"actions":"#.utf8)
            + actions + Array("}}}".utf8)
    }

    /// Decodes and maps `response` `rounds` times; the events made and the seconds taken.
    package static func run(response: [UInt8], rounds: Int) -> (events: Int, seconds: Double) {
        let decoder = JSONDecoder()
        let data = Data(response)
        let clock = ContinuousClock()
        let start = clock.now
        var events = 0
        for _ in 0..<rounds {
            guard let decoded = try? decoder.decode(LiveChatResponse.self, from: data) else { continue }
            for action in decoded.actions {
                events += ChatActionMapper.events(for: action).count
            }
        }
        let elapsed = clock.now - start
        return (events, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
