// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import Foundation
@testable import TwitCastingPlatform
import CommentBarNetTesting
import XCTest

/// Fixtures shaped like recorded TwitCasting answers and event messages (Tests/feeds/fixtures/twitcasting).
private func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../feeds/fixtures/twitcasting/\(name)")
    return try Data(contentsOf: url)
}

final class TwitCastingTests: XCTestCase {
    func testUserFromURLsAndIDs() throws {
        XCTAssertEqual(try TwitCastingUser.parse("https://twitcasting.tv/twitcasting_jp"), "twitcasting_jp")
        XCTAssertEqual(try TwitCastingUser.parse("https://twitcasting.tv/c:someone/movie/123"), "c:someone")
        XCTAssertEqual(try TwitCastingUser.parse("twitcasting.tv/g:1234567"), "g:1234567")
        XCTAssertEqual(try TwitCastingUser.parse(" user_1 "), "user_1")
        for bad in ["", "https://twitcasting.tv/", "a b", "ユーザー", ":x", "a?b=../", String(repeating: "a", count: 65)] {
            if bad == "a?b=../" {
                XCTAssertEqual(try TwitCastingUser.parse(bad), "a", "a query is not part of the id")
                continue
            }
            XCTAssertThrowsError(try TwitCastingUser.parse(bad), bad)
        }
        XCTAssertEqual(TwitCastingUser.queryValue("c:someone"), "c%3Asomeone")
    }

    func testStreamServerAnswers() throws {
        let live = try JSONDecoder().decode(TwitCastingAPI.StreamServer.self, from: fixture("streamserver_live.json"))
        XCTAssertEqual(live.movie?.id?.value, "789012345")
        XCTAssertEqual(live.movie?.live, true)
        let offline = try JSONDecoder().decode(TwitCastingAPI.StreamServer.self, from: fixture("streamserver_offline.json"))
        XCTAssertEqual(offline.movie?.live, false)
        XCTAssertNil(try JSONDecoder().decode(TwitCastingAPI.StreamServer.self, from: Data("{}".utf8)).movie)
    }

    func testViewerCount() throws {
        let token = try JSONDecoder().decode(TwitCastingAPI.HappyToken.self, from: fixture("happytoken.json"))
        XCTAssertEqual(token.token, "a1b2c3d4e5")
        let status = try JSONDecoder().decode(TwitCastingAPI.ViewerStatus.self, from: fixture("viewer_status.json"))
        XCTAssertEqual(status.movie?.viewers?.current?.value, 42)
        XCTAssertEqual(TwitCastingAPI.viewerStatusURL(base: "https://twitcasting.tv", movieID: "1", token: "t"),
                       "https://frontendapi.twitcasting.tv/movies/1/status/viewer?token=t")
        XCTAssertEqual(TwitCastingAPI.viewerStatusURL(base: "https://relay.example", movieID: "1", token: "t"),
                       "https://relay.example/movies/1/status/viewer?token=t")
    }

    func testEventURLGetsGiftsAndMustBeWSS() throws {
        let answer = try JSONDecoder().decode(TwitCastingAPI.EventPubSubURL.self, from: fixture("eventpubsuburl.json"))
        let endpoint = try XCTUnwrap(TwitCastingAPI.eventEndpoint(answer))
        XCTAssertEqual(endpoint.host, "a.event.twitcasting.tv")
        XCTAssertEqual(endpoint.transport, .webSocket(path: "/tc.event.pubsub/789012345?n=cce425f940dea58b&gift=1"))
        XCTAssertEqual(TwitCastingAPI.eventEndpoint(.init(url: "wss://h.example/x"))?.transport, .webSocket(path: "/x?gift=1"))
        for bad in ["ws://h.example/x", "file:///etc/passwd", "https://h.example/", "", "wss://"] {
            XCTAssertNil(TwitCastingAPI.eventEndpoint(.init(url: bad)), bad)
        }
        XCTAssertNil(TwitCastingAPI.eventEndpoint(.init(url: nil)))
    }

    func testEventsMapToCommentsAndGifts() throws {
        let lines = String(decoding: try fixture("events.txt"), as: UTF8.self).split(separator: "\n")
        var mapped: [Result<FeedEvent, TwitCastingEvent.ParseError>] = []
        for line in lines {
            for event in try TwitCastingEvent.parseMessage(Array(line.utf8)) { mapped.append(event.feedEvent()) }
        }
        XCTAssertEqual(mapped, [
            .success(.comment(ChatLine(id: "tc-12345678901", user: "なまえ", login: "namae_id", text: "こんにちは！"))),
            .success(.comment(ChatLine(id: "tc-12345678902", user: "c:other", login: "c:other", text: "二つ目"))),
            .success(.gift(ChatLine(id: "tc-gift-0123abcd.0123456789abcdef.12345678", user: "ギバー", login: "giver",
                                    text: "(+🍡2)", kind: .gift(name: "お茶", count: 2)))),
            .failure(.init(reason: "an event of unknown type \"unknownKind\"")),
        ])
    }

    func testBrokenMessagesAreRefused() {
        for bad in ["{}", "{\"type\":\"comment\"}", "not json", "", "[1, 2]", "\"text\""] {
            XCTAssertThrowsError(try TwitCastingEvent.parseMessage(Array(bad.utf8)), bad)
        }
        XCTAssertEqual(try TwitCastingEvent.parseMessage(Array("[]".utf8)), [])
        let noID = TwitCastingEvent(type: "comment", message: "x")
        XCTAssertEqual(noID.feedEvent(), .failure(.init(reason: "a comment without an id")))
        let empty = TwitCastingEvent(type: "comment", id: LenientString("1"), message: "")
        XCTAssertEqual(empty.feedEvent(), .success(.comment(ChatLine(id: "tc-1", user: "TwitCasting", text: "…"))))
    }

    func testServiceRefusesBadSettings() {
        XCTAssertThrowsError(try TwitCastingService.description.makeFeed(FeedRequest(streamID: "", web: EmbeddedWeb())))
        XCTAssertThrowsError(try TwitCastingService.description.makeFeed(FeedRequest(streamID: "u", server: "http://x", web: EmbeddedWeb())))
        XCTAssertNoThrow(try TwitCastingService.description.makeFeed(FeedRequest(streamID: "u", server: "https://127.0.0.1:8443", web: EmbeddedWeb())))
    }
}
