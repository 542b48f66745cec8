// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import Foundation
@testable import OPENRECPlatform
import CommentBarNetTesting
import XCTest

/// Fixtures shaped like recorded OPENREC answers and chat frames (Tests/feeds/fixtures/openrec).
private func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../feeds/fixtures/openrec/\(name)")
    return try Data(contentsOf: url)
}

final class OpenrecTests: XCTestCase {
    func testMovieIDFromURLsAndIDs() throws {
        XCTAssertEqual(try OpenrecMovieID.parse("https://www.openrec.tv/live/n9ze3m2w184"), "n9ze3m2w184")
        XCTAssertEqual(try OpenrecMovieID.parse("openrec.tv/live/FkJTQSjkQps?ref=x"), "FkJTQSjkQps")
        XCTAssertEqual(try OpenrecMovieID.parse(" n9ze3m2w184 "), "n9ze3m2w184")
        for bad in ["", "https://www.openrec.tv/user/someone", "https://www.openrec.tv/live/", "a b", "../x",
                    "ライブ", String(repeating: "a", count: 65)] {
            XCTAssertThrowsError(try OpenrecMovieID.parse(bad), bad)
        }
    }

    func testMovieAnswers() throws {
        let onair = try JSONDecoder().decode(OpenrecAPI.Movie.self, from: fixture("movie_onair.json"))
        XCTAssertEqual(onair.movieID?.value, "993793")
        XCTAssertEqual(onair.onairStatus?.value, 1)
        XCTAssertEqual(onair.liveViews?.value, 1368)
        // 2018-08-23T09:37:50+09:00
        XCTAssertEqual(onair.startTime, 1_534_984_670)
        let upcoming = try JSONDecoder().decode(OpenrecAPI.Movie.self, from: fixture("movie_upcoming.json"))
        XCTAssertEqual(upcoming.onairStatus?.value, 0)
        XCTAssertNil(upcoming.startTime)
        let ended = try JSONDecoder().decode(OpenrecAPI.Movie.self, from: fixture("movie_ended.json"))
        XCTAssertEqual(ended.onairStatus?.value, 2)
        XCTAssertNil(OpenrecAPI.Movie(startedAt: "yesterday").startTime)
        XCTAssertEqual(OpenrecAPI.Movie(startedAt: "2018-08-23T00:37:50Z").startTime, 1_534_984_670)
    }

    func testEngineIOFrames() throws {
        XCTAssertEqual(try EngineIOPacket.parse(#"0{"sid":"abc","upgrades":[],"pingInterval":25000,"pingTimeout":60000}"#),
                       .open(.init(sid: "abc", pingInterval: 25000, pingTimeout: 60000)))
        XCTAssertEqual(try EngineIOPacket.parse("1"), .close)
        XCTAssertEqual(try EngineIOPacket.parse("2"), .ping)
        XCTAssertEqual(try EngineIOPacket.parse("3probe"), .pong)
        XCTAssertEqual(try EngineIOPacket.parse("40"), .message(.connect))
        XCTAssertEqual(try EngineIOPacket.parse("40/,"), .message(.connect))
        XCTAssertEqual(try EngineIOPacket.parse("41"), .message(.disconnect))
        XCTAssertEqual(try EngineIOPacket.parse(#"42["message","{}"]"#), .message(.event(name: "message", arguments: ["{}"])))
        XCTAssertEqual(try EngineIOPacket.parse(#"4212["message",{"a":1},"x"]"#),
                       .message(.event(name: "message", arguments: [nil, "x"])))
        XCTAssertEqual(try EngineIOPacket.parse(#"44"refused""#), .message(.error("\"refused\"")))
        XCTAssertEqual(try EngineIOPacket.parse("5"), .upgrade)
        XCTAssertEqual(try EngineIOPacket.parse("6"), .noop)
        for bad in ["", "7", "x", "0", "0{", "4", "42", "42{}", "42[]", "42[1]", "42/admin,[\"message\"]", "43[]", "45-[]",
                    "42/nocomma[\"x\"]"] {
            XCTAssertThrowsError(try EngineIOPacket.parse(bad), bad)
        }
    }

    func testChatFramesMapToEvents() throws {
        let lines = String(decoding: try fixture("chat.txt"), as: UTF8.self).split(separator: "\n")
        var actions: [BroadcastChatAction] = []
        var others: [EngineIOPacket] = []
        for line in lines {
            let packet = try EngineIOPacket.parse(String(line))
            if case .message(.event("message", let arguments)) = packet, case .some(.some(let text)) = arguments.first {
                actions.append(OpenrecChatMapper.map(try XCTUnwrap(OpenrecChatMessage.parse(text))))
            } else {
                others.append(packet)
            }
        }
        XCTAssertEqual(others, [.open(.init(sid: "OaVm6u6Lf5nqLRLEAAAB", pingInterval: 25000, pingTimeout: 60000)),
                                .message(.connect), .pong])
        XCTAssertEqual(actions, [
            .emit(.comment(ChatLine(id: "or-182743145", user: "信乃", login: "shinano_all", text: "運だけ〜",
                                    color: RGBColor(hex: "#E03B92")))),
            .emit(.comment(ChatLine(id: "or-182743146", user: "スタンパー", login: "stamper", text: "[スタンプ]"))),
            .emit(.gift(ChatLine(id: "or-182743147", user: "エーラー", login: "yeller", text: "がんばって！",
                                 badges: ["moderator/1"], kind: .gift(name: "1,000エール", count: 1),
                                 highlight: OpenrecChatMapper.highlight(1000)))),
            .emit(.viewers(1406)),
            .ignore, .ignore,
            .restart,
            .ended,
        ])
    }

    func testSendTimeFromMessageDate() throws {
        XCTAssertEqual(OpenrecChatMapper.sentAt("2018-08-23 09:37:50"), 1_534_984_670, "Japan time")
        XCTAssertEqual(OpenrecChatMapper.sentAt("2000-02-29 09:00:00"), 951_782_400)
        for bad in [nil, "", "2018-08-23T09:37:50", "2018-13-23 09:37:50", "yesterday at noon!!"] {
            XCTAssertNil(OpenrecChatMapper.sentAt(bad), bad ?? "nil")
        }
        let text = #"{"type":0,"data":{"chat_id":7,"message":"hi","user_name":"a","message_dt":"2018-08-23 09:37:50"}}"#
        guard case .emit(.comment(let line)) = OpenrecChatMapper.map(try XCTUnwrap(OpenrecChatMessage.parse(text))) else {
            return XCTFail("a chat")
        }
        XCTAssertEqual(line.sentAt, 1_534_984_670)
    }

    func testUnknownAndBrokenChatMessages() {
        XCTAssertNil(OpenrecChatMessage.parse("not json"))
        XCTAssertEqual(OpenrecChatMapper.map(OpenrecChatMessage()), .unknown("a chat message without a type"))
        XCTAssertEqual(OpenrecChatMapper.map(OpenrecChatMessage(type: LenientInt(42))), .unknown("a chat message of unknown type 42"))
        XCTAssertEqual(OpenrecChatMapper.map(OpenrecChatMessage(type: LenientInt(0))), .unknown("a chat without an id"))
        XCTAssertEqual(OpenrecChatMapper.grouped(1234567), "1,234,567")
        XCTAssertEqual(OpenrecChatMapper.grouped(100), "100")
        XCTAssertEqual(OpenrecChatFeed.pingInterval(milliseconds: 25000), .seconds(25))
        XCTAssertEqual(OpenrecChatFeed.pingInterval(milliseconds: 1), .seconds(1))
        XCTAssertEqual(OpenrecChatFeed.pingInterval(milliseconds: nil), .seconds(25))
        XCTAssertEqual(OpenrecChatFeed.pingInterval(milliseconds: 1 << 40), .seconds(300))
    }

    func testServiceSettings() throws {
        XCTAssertThrowsError(try OPENRECService.description.makeFeed(FeedRequest(streamID: "", web: EmbeddedWeb())))
        XCTAssertThrowsError(try OPENRECService.description.makeFeed(FeedRequest(streamID: "x", server: "ws://x", web: EmbeddedWeb())))
        let feed = try XCTUnwrap(OPENRECService.description.makeFeed(FeedRequest(streamID: "x", web: EmbeddedWeb())) as? OpenrecChatFeed)
        XCTAssertEqual(feed.chatEndpoint(movieID: "993793")?.description,
                       "wss://chat.openrec.tv:443/socket.io/?movieId=993793&EIO=3&transport=websocket")
        let relay = try XCTUnwrap(OPENRECService.description.makeFeed(FeedRequest(streamID: "x", server: "https://127.0.0.1:8443", web: EmbeddedWeb()))
                                  as? OpenrecChatFeed)
        XCTAssertEqual(relay.api.base, "https://127.0.0.1:8443")
        XCTAssertEqual(relay.api.streamerServer, StreamerServer(host: "127.0.0.1", port: 8443))
        XCTAssertNil(feed.api.streamerServer)
        XCTAssertEqual(relay.chatEndpoint(movieID: "1")?.description, "wss://127.0.0.1:8443/socket.io/?movieId=1&EIO=3&transport=websocket")
    }
}
