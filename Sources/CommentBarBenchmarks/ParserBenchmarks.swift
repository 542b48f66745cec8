// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import FoundationEssentials
import NiconicoPlatform
import YouTubePlatform

/// `commentbar bench-parsers`: how many chat messages a second the platforms' parsers turn into
/// events, on recorded or schema-written input. Lives apart from the platform targets, which
/// only expose their parse entry points, so the product's platforms carry no benchmark.
public enum ParserBenchmarks {
    public struct Rate: Sendable {
        /// What was counted: events (YouTube) or NDGR messages (niconico).
        public var count: Int
        public var seconds: Double
        public var perSecond: Double { Double(count) / max(seconds, 1e-9) }
    }

    /// YouTube: `get_live_chat` responses around `actions` (a JSON array of recorded actions),
    /// decoded and mapped `rounds` times (after a warm-up); the events made.
    public static func youtube(actions: [UInt8], rounds: Int = 200) -> Rate {
        let response = Array(#"{"continuationContents":{"liveChatContinuation":{"continuations":[{"timedContinuationData":{"continuation":"x","timeoutMs":1000}}],"actions":"#.utf8)
            + actions + Array("}}}".utf8)
        let decoder = JSONDecoder()
        _ = measure(rounds: 3) { YouTubeLiveChatParsing.events(inResponse: response, decoder: decoder)?.count ?? 0 }
        return measure(rounds: rounds) { YouTubeLiveChatParsing.events(inResponse: response, decoder: decoder)?.count ?? 0 }
    }

    /// niconico: `segment` (length-delimited NDGR messages) repeated `repeats` times into one
    /// segment, split, decoded and mapped `rounds` times (after a warm-up); the messages read.
    public static func niconico(segment: [UInt8], repeats: Int = 10, rounds: Int = 50) -> Rate {
        let long = Array([[UInt8]](repeating: segment, count: max(repeats, 1)).joined())
        _ = measure(rounds: 2) { NiconicoSegmentParsing.parse(segment: long).messages }
        return measure(rounds: rounds) { NiconicoSegmentParsing.parse(segment: long).messages }
    }

    /// Runs `round` `rounds` times; what the rounds counted and the seconds taken.
    static func measure(rounds: Int, _ round: () -> Int) -> Rate {
        let clock = ContinuousClock()
        let start = clock.now
        var count = 0
        for _ in 0..<rounds { count += round() }
        let elapsed = clock.now - start
        return Rate(count: count,
                    seconds: elapsed.inSeconds)
    }
}
