// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarControl
import CommentBarCore
import FoundationEssentials
import Testing

/// Any JSON value, to compare the server's JSON text as data (key order aside).
enum JSONValue: Codable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null }
        else if let value = try? single.decode(Bool.self) { self = .bool(value) }
        else if let value = try? single.decode(Double.self) { self = .number(value) }
        else if let value = try? single.decode(String.self) { self = .string(value) }
        else if let value = try? single.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try single.decode([String: JSONValue].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .number(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    /// `bytes` as JSON text with sorted keys.
    static func sorted(_ bytes: [UInt8]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try JSONDecoder().decode(JSONValue.self, from: Data(bytes))), as: UTF8.self)
    }
}

@Suite struct ControlEventJSONTests {
    static let stream = ControlStream(platform: "twitch", channel: "streamer", colour: "#9146ff")

    @Test func aCommentIsOneFlatObjectWithEveryKey() throws {
        var line = ChatLine(id: "m1", user: "Alice", login: "alice", text: "hi Kappa", color: RGBColor(hex: "#ff0000"),
                            badges: ["moderator/1"], emotes: [Emote(range: 3..<8, name: "Kappa", url: "https://e.example/k.png")],
                            sentAt: 1_700_000_000.5)
        line.platform = "twitch"
        let comment = ControlEvent.Comment(id: line.id, platform: "twitch", channel: "streamer", platformColour: "#9146ff",
                                           user: "alice", name: "Alice", nickname: nil, firstTime: true, text: line.text,
                                           emotes: [.init(start: 3, end: 8, name: "Kappa", url: "https://e.example/k.png")],
                                           colour: "#ff0000", badges: ["moderator/1"], time: 1_700_000_000.5)
        let json = try JSONValue.sorted(try #require(ControlEvent(seq: 7, body: .comment(comment)).json()))
        #expect(json == ##"{"badges":["moderator/1"],"channel":"streamer","colour":"#ff0000","emotes":[{"end":8,"name":"Kappa","start":3,"url":"https://e.example/k.png"}],"first_time":true,"history":false,"id":"m1","kind":"comment","name":"Alice","nickname":null,"platform":"twitch","platform_colour":"#9146ff","seq":7,"text":"hi Kappa","time":1700000000.5,"type":"comment","user":"alice","version":1,"welcome_back":false}"##)
    }

    @Test func everyKindOfEventRoundTrips() throws {
        let comment = ControlEvent.Comment(id: "g", platform: "youtube", channel: "v", platformColour: "#ff0000", user: "u",
                                           name: "U", nickname: "ゆう", text: "", kind: "gift", gift: "Super Chat",
                                           count: 500, time: 2)
        let bodies: [ControlEvent.Body] = [
            .comment(comment), .gift(comment),
            .delete(.init(id: "0/x", platform: "twitch", channel: "c")),
            .ban(.init(user: "troll", platform: "twitch", channel: "c")),
            .clear(.init(platform: "twitch", channel: "c")),
            .viewers(.init(platform: "twitch", channel: "c", count: 12)),
            .pin(.init(id: "g", pinned: true, comment: comment, until: 99)),
            .pin(.init(id: "g", pinned: false)),
            .status(.init(platform: "twitch", channel: "c", state: "reconnecting", detail: "timeout")),
            .speech(.init(action: "skip")),
        ]
        for (index, body) in bodies.enumerated() {
            let event = ControlEvent(seq: index + 1, body: body)
            let bytes = try #require(event.json())
            #expect(try JSONDecoder().decode(ControlEvent.self, from: Data(bytes)) == event)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains(#""version":1"#) && text.contains(#""type":"\#(body.type)""#))
        }
    }

    @Test func theBarsEventsMapAsShown() throws {
        var line = ChatLine(id: "1/abc", user: "Alice", login: "alice", text: "こんにちは", sentAt: 5)
        // The viewer memory's nickname and 初見 mark, as it puts them on the row.
        line.nickname = "アリス"
        line.marks = [RowMark(.firstTime, "初見")]
        func map(_ event: FeedEvent, shown: ChatLine?) -> (ControlEvent.Body, ChatLine?)? {
            ControlEventMapping.body(for: event, shown: shown, stream: Self.stream, now: 0)
        }
        let (body, kept) = try #require(map(.comment(line), shown: line))
        guard case .comment(let comment) = body else { Issue.record("not a comment: \(body)"); return }
        #expect(comment.id == "1/abc" && comment.user == "alice" && comment.name == "Alice")
        #expect(comment.nickname == "アリス" && comment.firstTime && !comment.welcomeBack && comment.time == 5)
        // A regular back after a while: the memory's "welcome back" mark.
        var back = line
        back.marks = [RowMark(.back, "おかえり")]
        guard case .comment(let returning)? = map(.comment(back), shown: back)?.0
        else { Issue.record("not a comment"); return }
        #expect(returning.welcomeBack && !returning.firstTime)
        #expect(comment.platform == "twitch" && comment.channel == "streamer")
        #expect(kept == line)
        // A row the filters hid is not sent.
        #expect(map(.comment(line), shown: nil) == nil)
        guard case .ban(let ban)? = map(.deleteUser(user: "troll"), shown: nil)?.0
        else { Issue.record("a ban is not a ban"); return }
        #expect(ban.user == "troll")
        #expect(map(.mic(on: true), shown: nil) == nil)
    }
}
