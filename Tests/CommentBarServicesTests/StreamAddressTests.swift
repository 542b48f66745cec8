// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarServices
import XCTest

/// The product's stream URL table, built from every service's own patterns.
final class StreamAddressTests: XCTestCase {
    private let table = ServiceRegistry.product.streamURLs

    /// The detection table, pattern by pattern: what a streamer pastes → service, stream id, server.
    func testPastedURLsPickTheirService() throws {
        let cases: [(String, StreamAddress)] = [
            ("https://www.twitch.tv/SomeStreamer", StreamAddress(service: "twitch", streamID: "somestreamer")),
            ("twitch.tv/name", StreamAddress(service: "twitch", streamID: "name")),
            ("https://m.twitch.tv/name/", StreamAddress(service: "twitch", streamID: "name")),
            ("https://www.youtube.com/watch?v=abc123DEF45", StreamAddress(service: "youtube",
                                                                         streamID: "https://www.youtube.com/watch?v=abc123DEF45")),
            ("https://youtu.be/abc123DEF45", StreamAddress(service: "youtube", streamID: "https://youtu.be/abc123DEF45")),
            ("https://www.youtube.com/live/abc123DEF45", StreamAddress(service: "youtube",
                                                                      streamID: "https://www.youtube.com/live/abc123DEF45")),
            ("https://www.youtube.com/@handle", StreamAddress(service: "youtube", streamID: "https://www.youtube.com/@handle")),
            ("https://live.nicovideo.jp/watch/lv345678", StreamAddress(service: "niconico",
                                                                      streamID: "https://live.nicovideo.jp/watch/lv345678")),
            ("https://twitcasting.tv/user_1", StreamAddress(service: "twitcasting", streamID: "https://twitcasting.tv/user_1")),
            ("https://www.openrec.tv/live/abc", StreamAddress(service: "openrec", streamID: "https://www.openrec.tv/live/abc")),
            ("https://www.showroom-live.com/r/room_key", StreamAddress(service: "showroom",
                                                                      streamID: "https://www.showroom-live.com/r/room_key")),
            ("wss://relay.example/chat/1", StreamAddress(service: "websocket", streamID: "", server: "wss://relay.example/chat/1")),
            ("ircs://irc.libera.chat:6697/#comments", StreamAddress(service: "irc", streamID: "#comments",
                                                                   server: "ircs://irc.libera.chat:6697")),
            ("twitch:name", StreamAddress(service: "twitch", streamID: "name")),
            ("YouTube:abc123DEF45", StreamAddress(service: "youtube", streamID: "abc123DEF45")),
            ("file:/home/me/chat.jsonl", StreamAddress(service: "file", streamID: "/home/me/chat.jsonl")),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try StreamAddress.parse(text, table: table), expected, text)
        }
    }

    func testUnrecognisedURLsSayWhatIsSupported() {
        for text in ["https://example.com/live/1", "ftp://twitch.tv/x", "https://www.twitch.tv/", "ircs://host",
                     "not a url", "unknown:thing", "https://"] {
            XCTAssertThrowsError(try StreamAddress.parse(text, table: table), text) { error in
                let message = (error as? FeedConfigError)?.message ?? ""
                XCTAssertFalse(message.isEmpty, text)
                if text == "ircs://host" {
                    XCTAssert(message.hasPrefix("\"ircs://host\": an IRC address needs the channel"), message)
                }
                if text == "https://www.twitch.tv/" {
                    XCTAssert(message.hasSuffix("a Twitch URL needs the channel, e.g. https://twitch.tv/NAME"), message)
                }
                if text.hasPrefix("https://example") {
                    XCTAssert(message.contains("Paste a Twitch, YouTube, SHOWROOM, TwitCasting, OPENREC, niconico, "), message)
                    XCTAssert(message.hasSuffix(" URL, an ircs://host/#channel address, a ws:// or wss:// relay, or service:id."),
                              message)
                }
            }
        }
    }

    func testListsDropDuplicatesAndStopAtTheLimit() {
        let (one, noProblems) = StreamAddress.list(["twitch.tv/a", "https://www.twitch.tv/A", "twitch:a", ""],
                                                   table: table)
        XCTAssertEqual(one, [StreamAddress(service: "twitch", streamID: "a")], "the same stream three ways is one feed")
        XCTAssertEqual(noProblems, [])
        let fifty = (1...50).map { "twitch:channel\($0)" }
        let (limited, problems) = StreamAddress.list(fifty, table: table)
        XCTAssertEqual(limited.count, StreamAddress.maxStreams)
        XCTAssertEqual(problems.count, 1)
        XCTAssert(problems[0].contains("more than 8 streams"), problems[0])
        let (mixed, mixedProblems) = StreamAddress.list(["twitch:a", "https://bad.example/x", "twitch:b"], table: table)
        XCTAssertEqual(mixed.map(\.streamID), ["a", "b"], "one bad entry stops nothing else")
        XCTAssertEqual(mixedProblems.count, 1)
    }

    func testOldSingleStreamSettingsStillWork() {
        XCTAssertEqual(StreamAddress.legacy(service: "twitch", streamID: "name", server: "", table: table),
                       StreamAddress(service: "twitch", streamID: "name"))
        XCTAssertEqual(StreamAddress.legacy(service: "websocket", streamID: "room", server: "wss://relay/{stream}", table: table),
                       StreamAddress(service: "websocket", streamID: "room", server: "wss://relay/{stream}"))
        // A URL pasted into the old Stream ID field picks its service whatever the service list says.
        XCTAssertEqual(StreamAddress.legacy(service: "demo", streamID: "https://www.twitch.tv/name", server: "", table: table),
                       StreamAddress(service: "twitch", streamID: "name"))
        // An unknown URL stays the chosen service's to judge (its message names what it takes).
        XCTAssertEqual(StreamAddress.legacy(service: "youtube", streamID: "https://example.com/watch?v=x", server: "",
                                            table: table),
                       StreamAddress(service: "youtube", streamID: "https://example.com/watch?v=x"))
    }

    /// Two JSON relays with no stream id are two streams: each is named by its address, for the
    /// memory, the event API and the doors alike (issue 48: votes and places are per stream).
    func testTwoRelaysWithoutAnIdAreTwoChannels() {
        var settings = BarSettings()
        settings.feeds = ["wss://relay.example/chat/1", "wss://relay.example/chat/2", "twitch:name"]
        let plan = StreamPlan(settings: settings)
        XCTAssertEqual(plan.streams.map(\.channel), ["wss://relay.example/chat/1", "wss://relay.example/chat/2", "name"])
        XCTAssertEqual(plan.streams.compactMap(\.address?.description),
                       ["websocket:wss://relay.example/chat/1", "websocket:wss://relay.example/chat/2", "twitch:name"])
    }
}
