// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import XCTest
@testable import SHOWROOMPlatform

/// The room status and gift list APIs, served by the in-process web.
final class ShowroomWebTests: XCTestCase {
    static let statusURL = "https://www.showroom-live.com/api/room/status?room_url_key=cbroom"

    private func feed(_ web: EmbeddedWeb) throws -> ShowroomChatFeed {
        try XCTUnwrap(SHOWROOMService.description.makeFeed(FeedRequest(streamID: "cbroom", web: web)) as? ShowroomChatFeed)
    }

    private func resolve(_ answer: EmbeddedWeb.Answer) async throws -> ResolvedChatLoop.Resolution<ShowroomChatFeed.Broadcast> {
        try await feed(EmbeddedWeb([Self.statusURL: answer])).resolve()
    }

    func testALiveRoomGivesItsChatServerAndKey() async throws {
        let web = EmbeddedWeb([Self.statusURL: .text(
            #"{"room_id":12345,"is_live":true,"broadcast_key":"abc:def","broadcast_host":"online.showroom-live.com","started_at":"1700000000"}"#)])
        guard case .live(let broadcast) = try await feed(web).resolve() else { return XCTFail("live") }
        XCTAssertEqual(broadcast.roomID, "12345")
        XCTAssertEqual(broadcast.key, "abc:def")
        XCTAssertEqual(broadcast.endpoint.description, "wss://online.showroom-live.com:443/")
        XCTAssertEqual(broadcast.startedAt, 1_700_000_000)
        XCTAssertEqual(web.requests.map(\.url), [Self.statusURL])
    }

    func testNotLiveMissingAndAChatServerElsewhere() async throws {
        guard case .notLive = try await resolve(.text(#"{"room_id":"1","is_live":false}"#)) else { return XCTFail("not live") }
        guard case .failed(let missing, _) = try await resolve(.status(404)) else { return XCTFail("404") }
        XCTAssertEqual(missing, "ルームが見つかりません / no such SHOWROOM room: cbroom")
        guard case .failed(let elsewhere, _) = try await resolve(.text(
            #"{"room_id":"1","is_live":true,"broadcast_key":"k","broadcast_host":"evil.example"}"#)) else {
            return XCTFail("a chat server that is not SHOWROOM's")
        }
        XCTAssertEqual(elsewhere, "the SHOWROOM room status has no usable chat server")
        guard case .failed(let junk, _) = try await resolve(.text("null")) else { return XCTFail("junk") }
        XCTAssertEqual(junk, "https://www.showroom-live.com/api/room/status: not the expected JSON")
        guard case .failed(let noRoom, _) = try await resolve(.text("{}")) else { return XCTFail("no room") }
        XCTAssertEqual(noRoom, "ルームが見つかりません / no such SHOWROOM room: cbroom")
    }

    func testGiftNamesComeFromTheGiftList() async throws {
        let web = EmbeddedWeb(["https://www.showroom-live.com/api/live/gift_list?room_id=12345": .text(
            #"{"normal":[{"gift_id":1,"gift_name":"Star"}],"enquete":[{"gift_id":"2","gift_name":"Vote"},{"gift_id":3}]}"#)])
        let names = try await feed(web).giftNames(roomID: "12345", problems: InputProblemLog(source: "test"))
        XCTAssertEqual(names, [1: "Star", 2: "Vote"])
        let none = try await feed(EmbeddedWeb()).giftNames(roomID: "12345", problems: InputProblemLog(source: "test"))
        XCTAssertEqual(none, [:], "without a list, gifts show their ids")
    }
}
