// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import XCTest

final class FeedEventJSONTests: XCTestCase {
    func testEveryEventParses() throws {
        let cases: [(String, FeedEvent)] = [
            (#"{"type":"start","time":1700000000}"#, .start(time: 1_700_000_000)),
            (##"{"type":"comment","id":"c1","user":"さくら","text":"こんにちは 🌸","color":"#ff7eb6"}"##,
             .comment(ChatLine(id: "c1", user: "さくら", text: "こんにちは 🌸", color: RGBColor(hex: "#ff7eb6")))),
            (#"{"type":"comment","id":"c2","user":"a","text":"waves","kind":"action"}"#,
             .comment(ChatLine(id: "c2", user: "a", text: "waves", kind: .action))),
            (#"{"type":"gift","id":"g1","user":"u","gift":"Star","count":3}"#,
             .gift(ChatLine(id: "g1", user: "u", text: "", kind: .gift(name: "Star", count: 3)))),
            (#"{"type":"viewers","count":42}"#, .viewers(42)),
            (#"{"type":"mic","on":false}"#, .mic(on: false)),
            (#"{"type":"delete","id":"c1"}"#, .delete(id: "c1")),
            (#"{"type":"delete","user":"spammer"}"#, .deleteUser(user: "spammer")),
            (#"{"type":"clear"}"#, .clear),
            (#"{"type":"avatar","path":"/a.png"}"#, .avatar(.file(path: "/a.png"))),
            (#"{"type":"background","path":"/b.jpg"}"#, .background(.file(path: "/b.jpg"))),
            (#"{"type":"avatar","url":"https://cdn.example/a.png"}"#, .avatar(.remote(url: "https://cdn.example/a.png"))),
            (#"{"type":"avatar","path":""}"#, .avatar(nil)),
            (#"{"type":"status","state":"paused"}"#, .status(.paused)),
            (#"{"type":"status","state":"reconnecting","message":"timeout"}"#, .status(.reconnecting(reason: "timeout"))),
            (#"{"type":"status","state":"waiting","message":"not live yet"}"#, .status(.waiting(reason: "not live yet"))),
            (#"{"type":"status","state":"ended"}"#, .status(.ended(reason: ""))),
            (#"{"type":"channel","id":"UCabcdefghijklmnopqrstuv"}"#, .channel(id: "UCabcdefghijklmnopqrstuv")),
            (#"{"type":"channel","id":"user/12345"}"#, .channel(id: "user/12345")),
            (##"{"type":"gift","id":"s1","user":"u","gift":"¥1,000","text":"がんばって","highlight":"#1de9b6"}"##,
             .gift(ChatLine(id: "s1", user: "u", text: "がんばって", kind: .gift(name: "¥1,000", count: 1),
                            highlight: RGBColor(hex: "#1de9b6")))),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(try FeedEventJSON.parse(json), .event(expected, at: nil), json)
            // What tail prints, the file service reads back.
            XCTAssertEqual(try FeedEventJSON.parse(FeedEventJSON.encode(.event(expected, at: 1.5))), .event(expected, at: 1.5))
        }
        XCTAssertEqual(try FeedEventJSON.parse(#"{"type":"recording","time":5}"#), .recording(time: 5))
    }

    func testErrorsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            ("not json", "not a JSON object"),
            (#"{"type":"avatar","url":"http://cdn.example/a.png"}"#, "image URLs must be https:// (got http://)"),
            (#"{"type":"background","path":"file:///etc/passwd"}"#, "image URLs must be https:// (got file://)"),
            ("[1,2]", "not a JSON object"),
            (#"{"type":"comment","id":"c","text":"t","highlight":"gold"}"#, "\"highlight\" must be #rrggbb, got gold"),
            (#"{"id":"x"}"#, "missing \"type\""),
            (#"{"type":"wat"}"#, "unknown event type \"wat\""),
            (#"{"type":"comment","id":"x"}"#, "comment event needs \"text\""),
            (#"{"type":"viewers","count":"many"}"#, "wrong type for \"count\""),
            (#"{"type":"viewers","count":-1}"#, "\"count\" must be >= 0"),
            (#"{"type":"comment","id":"x","text":"t","color":"red"}"#, "\"color\" must be #rrggbb, got red"),
            (#"{"type":"mic","on":true,"at":-2}"#, "\"at\" must be a number of seconds from 0 to 10000000"),
            (#"{"type":"mic","on":true,"at":1e21}"#, "\"at\" must be a number of seconds from 0 to 10000000"),
            (#"{"type":"channel"}"#, "channel event needs \"id\""),
            (#"{"type":"channel","id":"two words"}"#,
             "\"id\" of a channel event must be 1 to 128 characters without spaces or controls"),
            (#"{"type":"channel","id":""}"#, "\"id\" of a channel event must be 1 to 128 characters without spaces or controls"),
            ("{\"type\":\"channel\",\"id\":\"a\\u202eb\"}",
             "\"id\" of a channel event must be 1 to 128 characters without spaces or controls"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try FeedEventJSON.parse(json), json) { error in
                XCTAssertEqual((error as? FeedEventJSON.ParseError)?.message, message, json)
            }
        }
    }
}

final class EmoteJSONTests: XCTestCase {
    func testEmotesRoundTripAndBadOnesAreDropped() throws {
        let json = #"{"type":"comment","id":"e","user":"u","text":"Kappa hi 🎉 Kappa","emotes":[{"start":0,"end":5,"name":"Kappa","url":"https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0"},{"start":11,"end":16,"name":"Kappa","url":"https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0"},{"start":6,"end":8,"name":"no","url":"https://x/y.png"},{"start":3,"end":9,"name":"pa hi ","url":"https://x/overlap.png"},{"start":40,"end":45,"name":"Kappa","url":"https://x/out.png"},{"start":0,"end":5,"name":"Kappa","url":"file:///etc/passwd"}]}"#
        guard case .event(.comment(let line), _) = try FeedEventJSON.parse(json) else { return XCTFail("not a comment") }
        XCTAssertEqual(line.emotes.map(\.range), [0..<5, 11..<16], "scalar offsets: 🎉 is one scalar")
        XCTAssertEqual(try FeedEventJSON.parse(FeedEventJSON.encode(.event(.comment(line), at: nil))),
                       .event(.comment(line), at: nil))
    }

    func testAMaskedNGWordUnmakesItsEmote() {
        var state = BarState()
        state.filters = ChatFilters(ngWords: ["kappa"])
        state.apply(.comment(ChatLine(id: "1", user: "u", text: "Kappa ok",
                                      emotes: [Emote(range: 0..<5, name: "Kappa", url: "https://e/1.png")])))
        XCTAssertEqual(state.lines.first?.text, "＊＊＊＊＊ ok")
        XCTAssertEqual(state.lines.first?.emotes, [])
    }
}
