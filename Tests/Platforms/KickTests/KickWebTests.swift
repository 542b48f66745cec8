// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Synchronization
import XCTest
@testable import KickPlatform

/// The channel JSON, served by the in-process web: what a feed asks, and what it makes of the answer.
final class KickWebTests: XCTestCase {
    static let channelURL = "https://kick.com/api/v2/channels/xqc"

    private func resolve(_ answer: EmbeddedWeb.Answer, server: String = "") async throws
        -> (ResolvedChatLoop.Resolution<KickChatFeed.Chat>, [FeedEvent], EmbeddedWeb)
    {
        let web = EmbeddedWeb()
        web.answer(startingWith: "https://", with: answer)
        let feed = try XCTUnwrap(KickService.description.makeFeed(FeedRequest(streamID: "xqc", server: server, web: web))
                                 as? KickChatFeed)
        let events = Mutex<[FeedEvent]>([])
        let resolution = await feed.resolve { event in events.withLock { $0.append(event) } }
        return (resolution, events.withLock { $0 }, web)
    }

    func testALiveChannelGivesItsChatroomViewersAndStart() async throws {
        let (resolution, events, web) = try await resolve(.text(
            #"{"id":7,"slug":"xqc","chatroom":{"id":668},"livestream":{"id":1,"is_live":true,"viewer_count":1234,"start_time":"2024-05-01 18:00:00"}}"#))
        guard case .live(let chat) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(chat.chatroomID, 668)
        XCTAssertEqual(chat.channelID, 7)
        XCTAssertEqual(events, [.start(time: 1_714_586_400), .viewers(1234)])
        let request = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(request.url, Self.channelURL)
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.accept, "application/json")
        XCTAssertEqual(request.limits, KickAPI.limits)
        XCTAssertNil(request.streamerServer, "Kick's own API is checked like any host")
    }

    func testOfflineMissingBotWallJunkAndRateLimit() async throws {
        guard case .notLive("配信前 / offline") = try await resolve(.text(#"{"chatroom":{"id":1},"livestream":null}"#)).0 else {
            return XCTFail("offline")
        }
        guard case .failed(let missing, _) = try await resolve(.status(404)).0 else { return XCTFail("404") }
        XCTAssertEqual(missing, "チャンネルが見つかりません / no such Kick channel: xqc")
        guard case .failed(let wall, _) = try await resolve(.status(403)).0 else { return XCTFail("403") }
        XCTAssertTrue(wall.contains("kick:chatroom:ID"), wall)
        guard case .failed(let junk, _) = try await resolve(.text("<html>Just a moment...</html>")).0 else { return XCTFail("junk") }
        XCTAssertEqual(junk, "\(Self.channelURL): not the expected JSON")
        guard case .failed(let busy, let wait) = try await resolve(.status(429)).0 else { return XCTFail("429") }
        XCTAssertEqual(busy, "\(Self.channelURL): HTTP 429 (too many requests)")
        XCTAssertEqual(wait, .seconds(30))
        guard case .failed(let slow, _) = try await resolve(.timesOut).0 else { return XCTFail("timeout") }
        XCTAssertEqual(slow, "\(Self.channelURL): timed out")
    }

    /// A typed `server` takes every request, and they carry the allowance for that host alone.
    func testATypedServerTakesTheRequestsWithItsAllowance() async throws {
        let (_, _, web) = try await resolve(.text("{}"), server: "https://127.0.0.1:8443/")
        let request = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(request.url, "https://127.0.0.1:8443/api/v2/channels/xqc")
        XCTAssertEqual(request.streamerServer, StreamerServer(host: "127.0.0.1", port: 8443))
    }
}
