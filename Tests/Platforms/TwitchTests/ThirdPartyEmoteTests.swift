// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Foundation
import Synchronization
import XCTest
@testable import TwitchPlatform

/// BetterTTV, FrankerFaceZ and 7TV answers (Tests/feeds/fixtures/twitch-emotes, see SOURCES.md
/// there; shared with the live test's fake APIs) → codes, the order of a clash, and rows.
final class ThirdPartyEmoteTests: XCTestCase {
    typealias Sets = ThirdPartyEmoteSets
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("feeds/fixtures/twitch-emotes")

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    private func codes(_ entries: [Sets.Entry]) -> [String: String] {
        Dictionary(entries.map { ($0.code, $0.url) }, uniquingKeysWith: { first, _ in first })
    }

    /// The list a provider answers with `body` (the global one, or the channel `room`'s), read
    /// through the in-process web: the request it makes is checked too.
    private func list(_ provider: Sets.Provider, room: String? = nil, _ body: [UInt8]) async throws -> [Sets.Entry] {
        let url = room.map { Sets.channelURL(provider, room: $0) } ?? Sets.globalURL(provider)
        let web = EmbeddedWeb([url: .ok(body)])
        let entries = try await Sets.fetch(provider, room: room, web: web)
        XCTAssertEqual(web.requests.map(\.url), [url])
        XCTAssertEqual(web.requests.first?.accept, "application/json")
        XCTAssertEqual(web.requests.first?.limits, Sets.limits)
        return entries
    }

    func testBetterTTVGlobalAndChannel() async throws {
        let global = codes(try await list(.betterTTV, Self.fixture("bttv_global.json")))
        XCTAssertEqual(global.count, 5)
        XCTAssertEqual(global[":tf:"], "https://cdn.betterttv.net/emote/54fa8f1401e468494b85b537/2x")
        let channel = try await list(.betterTTV, room: "12826", Self.fixture("bttv_user.json"))
        XCTAssertEqual(channel.map(\.code), ["catJAM", "monkaS", "HYPERS"], "channel emotes, then shared ones")
        XCTAssertEqual(channel[0].url, "https://cdn.betterttv.net/emote/5f1b0186cf6d2144653d2970/2x")
    }

    func testFrankerFaceZGlobalOnlyDefaultSetsAndRoomMakesUrlsHttps() async throws {
        let global = codes(try await list(.frankerFaceZ, Self.fixture("ffz_global.json")))
        XCTAssertEqual(Set(global.keys), ["ZreknarF", "LilZ"], "set 4330 is not in default_sets")
        XCTAssertEqual(global["LilZ"], "https://cdn.frankerfacez.com/emote/28136/2")
        let room = codes(try await list(.frankerFaceZ, room: "12826", Self.fixture("ffz_room.json")))
        XCTAssertEqual(room["OMEGALUL"], "https://cdn.frankerfacez.com/emote/128054/2")
        XCTAssertEqual(room["monkaS"], "https://cdn.frankerfacez.com/emote/130762/2")
        XCTAssertNil(room["FileTrick"], "file: and http: image URLs are refused")
    }

    func testSevenTVGlobalAndUserUseTheSetNameAndHost() async throws {
        let global = codes(try await list(.sevenTV, Self.fixture("7tv_global.json")))
        XCTAssertEqual(global, ["EZ": "https://cdn.7tv.app/emote/60ae958e229664e8667aea38/2x.webp",
                                "Clap": "https://cdn.7tv.app/emote/60e5d610a69fc8d27f2737b7/2x.webp"])
        let user = codes(try await list(.sevenTV, room: "12826", Self.fixture("7tv_user.json")))
        XCTAssertEqual(Set(user.keys), ["peepoHappy", "monkaS", "aliasedHappy"], "an alias is the code; no host, no emote")
        XCTAssertEqual(user["aliasedHappy"], "https://cdn.7tv.app/emote/6042089e77137b000de9e669/2x.webp")
    }

    func testJunkIsUnreadableAndOtherShapesAreSkipped() async throws {
        for provider in Sets.Provider.allCases {
            for (room, body) in [(nil, Array("<html>".utf8)), ("12826", [])] as [(String?, [UInt8])] {
                do {
                    _ = try await list(provider, room: room, body)
                    XCTFail("\(provider) read junk")
                } catch {
                    XCTAssertTrue("\(error)".hasSuffix(": not the expected JSON"), "\(error)")
                }
            }
        }
        let bttv = try await list(.betterTTV, Array(#"[1, null, {"id": "../x", "code": "A"}, {"id": "ab", "code": "has space"}, {"id": "ab", "code": "Ok"}]"#.utf8))
        XCTAssertEqual(bttv, [Sets.Entry(code: "Ok", url: "https://cdn.betterttv.net/emote/ab/2x")])
        let seven = try await list(.sevenTV, room: "12826", Array(#"{"emote_set": null}"#.utf8))
        XCTAssertEqual(seven, [])
        let ffz = try await list(.frankerFaceZ, room: "12826", Array(#"{"sets": {"1": {"emoticons": [{"name": "X", "urls": {"2": "javascript:alert(1)"}}]}}}"#.utf8))
        XCTAssertEqual(ffz, [])
    }

    func testClashOrderChannelBeforeGlobalThenSevenTVBetterTTVFrankerFaceZ() async throws {
        let sevenChannel = try await list(.sevenTV, room: "12826", Self.fixture("7tv_user.json"))
        let bttvChannel = try await list(.betterTTV, room: "12826", Self.fixture("bttv_user.json"))
        let ffzChannel = try await list(.frankerFaceZ, room: "12826", Self.fixture("ffz_room.json"))
        let map = EmoteCodeMap([sevenChannel, bttvChannel, ffzChannel,
                                [Sets.Entry(code: "OMEGALUL", url: "https://global.example/x")]])
        XCTAssertEqual(map.urls["monkaS"], "https://cdn.7tv.app/emote/603cac391cd55c0014d989be/2x.webp")
        XCTAssertEqual(map.urls["OMEGALUL"], "https://cdn.frankerfacez.com/emote/128054/2", "a channel's emote beats a global one")
        let withoutSeven = EmoteCodeMap([bttvChannel, ffzChannel])
        XCTAssertEqual(withoutSeven.urls["monkaS"], "https://cdn.betterttv.net/emote/56e9f494fff3cc5c35e5287e/2x")
    }

    func testMapIsBounded() {
        let many = (0..<(EmoteCodeMap.maxCodes + 500)).map { Sets.Entry(code: "c\($0)", url: "https://x.example/\($0)") }
        XCTAssertEqual(EmoteCodeMap([many, many]).count, EmoteCodeMap.maxCodes)
    }

    func testWordsBecomeEmotesOutsideTwitchRangesWithScalarOffsets() {
        let map = EmoteCodeMap([[Sets.Entry(code: "catJAM", url: "https://b.example/cat"),
                                 Sets.Entry(code: "Kappa", url: "https://b.example/not-twitch")]])
        let twitch = Emote(range: 0..<5, name: "Kappa", url: "https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0")
        let text = "Kappa 😀 catJAM xcatJAM catJAMx  catJAM"
        let emotes = map.adding(to: [twitch], in: text)
        XCTAssertEqual(emotes, [twitch,
                                Emote(range: 8..<14, name: "catJAM", url: "https://b.example/cat"),
                                Emote(range: 32..<38, name: "catJAM", url: "https://b.example/cat")])
        let line = ChatLine(id: "1", user: "u", text: text, emotes: emotes)
        XCTAssertEqual(line.emotes.count, 3, "the ranges match the text as ChatLine checks it")
        XCTAssertEqual(EmoteCodeMap().adding(to: [], in: "catJAM"), [])
    }

    func testLoaderDecoratesRowsWithWhatLoadedAndKeepsGoingOnFailures() async throws {
        let web = EmbeddedWeb([
            Sets.globalURL(.sevenTV): .ok(try Self.fixture("7tv_global.json")),
            Sets.globalURL(.betterTTV): .status(500),
            Sets.globalURL(.frankerFaceZ): .text("junk"),
            Sets.channelURL(.sevenTV, room: "12826"): .status(404),
            Sets.channelURL(.betterTTV, room: "12826"): .ok(try Self.fixture("bttv_user.json")),
            Sets.channelURL(.frankerFaceZ, room: "12826"): .ok(try Self.fixture("ffz_room.json")),
        ])
        let emotes = ThirdPartyEmotes(web: web)
        let row = FeedEvent.comment(ChatLine(id: "1", user: "u", text: "EZ catJAM monkaS"))
        XCTAssertEqual(emotes.decorate(row), row, "nothing loaded yet: the row goes on as it is")

        await emotes.refresh()
        XCTAssertEqual(web.requests.count, 3, "no room yet: only the global lists")
        guard case .comment(let globalOnly) = emotes.decorate(row) else { return XCTFail() }
        XCTAssertEqual(globalOnly.emotes.map(\.name), ["EZ"])

        emotes.roomSeen("12826")
        await emotes.refresh()
        guard case .comment(let line) = emotes.decorate(row) else { return XCTFail() }
        XCTAssertEqual(line.emotes, [
            Emote(range: 0..<2, name: "EZ", url: "https://cdn.7tv.app/emote/60ae958e229664e8667aea38/2x.webp"),
            Emote(range: 3..<9, name: "catJAM", url: "https://cdn.betterttv.net/emote/5f1b0186cf6d2144653d2970/2x"),
            Emote(range: 10..<16, name: "monkaS", url: "https://cdn.betterttv.net/emote/56e9f494fff3cc5c35e5287e/2x"),
        ])
        let gift = FeedEvent.gift(ChatLine(id: "2", user: "u", text: "Cheer100 OMEGALUL", kind: .gift(name: "Bits", count: 100)))
        guard case .gift(let cheer) = emotes.decorate(gift) else { return XCTFail() }
        XCTAssertEqual(cheer.emotes.map(\.name), ["OMEGALUL"])
        XCTAssertEqual(emotes.decorate(.clear), .clear)
    }

    func testRunLoadsAtOnceAndStopsWhenCancelled() async throws {
        let web = EmbeddedWeb([Sets.globalURL(.sevenTV): .ok(try Self.fixture("7tv_global.json"))])
        web.answer(startingWith: "https://", with: .failure(WebFailure("offline")))
        let emotes = ThirdPartyEmotes(web: web)
        let task = Task { await emotes.run() }
        for _ in 0..<200 where emotes.codeCount == 0 { try await Task.sleep(for: .milliseconds(50)) }
        XCTAssertEqual(emotes.codeCount, 2)
        task.cancel()
        await task.value
    }
}
