// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import Foundation
@testable import SHOWROOMPlatform
import CommentBarNetTesting
import XCTest

/// Fixtures shaped like recorded SHOWROOM frames and API answers (Tests/feeds/fixtures/showroom).
private func fixture(_ name: String) throws -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../feeds/fixtures/showroom/\(name)")
    return try Data(contentsOf: url)
}

final class ShowroomTests: XCTestCase {
    func testRoomKeyFromURLsAndKeys() throws {
        XCTAssertEqual(try ShowroomRoomKey.parse("https://www.showroom-live.com/r/48_Hitomi_Nagata"), "48_Hitomi_Nagata")
        XCTAssertEqual(try ShowroomRoomKey.parse("https://www.showroom-live.com/r/1077f4117133?t=1#x"), "1077f4117133")
        XCTAssertEqual(try ShowroomRoomKey.parse("showroom-live.com/cb_room"), "cb_room")
        XCTAssertEqual(try ShowroomRoomKey.parse("  cb_room \n"), "cb_room")
        for bad in ["", "https://www.showroom-live.com/r/", "a b", "キー", "../etc", String(repeating: "a", count: 65)] {
            XCTAssertThrowsError(try ShowroomRoomKey.parse(bad), bad)
        }
    }

    func testLiveAndOfflineRoomStatus() throws {
        let live = try JSONDecoder().decode(ShowroomAPI.RoomStatus.self, from: fixture("room_status_live.json"))
        XCTAssertEqual(live.roomID?.value, "510067")
        XCTAssertEqual(live.isLive, true)
        XCTAssertEqual(live.broadcastKey, "960df3:xzRiR62X")
        XCTAssertEqual(live.broadcastHost, "online.showroom-live.com")
        XCTAssertEqual(live.startedAt?.value, 1591278000)
        let offline = try JSONDecoder().decode(ShowroomAPI.RoomStatus.self, from: fixture("room_status_offline.json"))
        XCTAssertEqual(offline.roomID?.value, "42", "a numeric room id is read as its digits")
        XCTAssertEqual(offline.isLive, false)
    }

    func testGiftNames() throws {
        let list = try JSONDecoder().decode(ShowroomAPI.GiftList.self, from: fixture("gift_list.json"))
        XCTAssertEqual(ShowroomAPI.giftNames(list), [1: "星", 1003: "花束", 1601: "1"])
    }

    func testChatLinesMapToEvents() throws {
        let text = String(decoding: try fixture("chat.txt"), as: UTF8.self)
        var mapper = ShowroomChatMapper(giftNames: [1003: "花束"])
        var actions: [BroadcastChatAction] = []
        var acks = 0
        var quits = 0
        for line in text.split(separator: "\n") {
            switch try ShowroomLine.parse(String(line)) {
            case .message(let payload): actions.append(mapper.map(payload))
            case .ack: acks += 1
            case .quit: quits += 1
            }
        }
        XCTAssertEqual(acks, 1)
        XCTAssertEqual(quits, 1)
        XCTAssertEqual(actions, [
            .emit(.comment(ChatLine(id: "sr-c1", user: "【初見】こにたん", login: "2262593", text: "芸人"))),
            .emit(.gift(ChatLine(id: "sr-g2", user: "すずな犬フェス", login: "3054201", text: "",
                                 kind: .gift(name: "花束", count: 1)))),
            .emit(.gift(ChatLine(id: "sr-g2", user: "すずな犬フェス", login: "3054201", text: "",
                                 kind: .gift(name: "花束", count: 11)))),
            .ignore, .ignore,
            .emit(.comment(ChatLine(id: "sr-t3", user: "テロップ", text: "まいにち配信100日記念", kind: .notice))),
            .ignore, .ignore, .ignore,
            .ended,
        ])
    }

    func testUnknownAndBrokenMessages() {
        XCTAssertThrowsError(try ShowroomLine.parse("MSG\tkey\t{broken"))
        XCTAssertThrowsError(try ShowroomLine.parse("MSG\tkey"))
        XCTAssertThrowsError(try ShowroomLine.parse("MSG\tkey\t[1]"))
        XCTAssertThrowsError(try ShowroomLine.parse("NOPE\tx"))
        XCTAssertThrowsError(try ShowroomLine.parse(""))
        var mapper = ShowroomChatMapper(giftNames: [:])
        XCTAssertEqual(mapper.map(ShowroomPayload(t: LenientInt(999))), .unknown("a message of unknown kind 999"))
        XCTAssertEqual(mapper.map(ShowroomPayload()), .unknown("a message without a kind"))
        XCTAssertEqual(mapper.map(ShowroomPayload(t: LenientInt(2))), .unknown("a gift without its id"))
        XCTAssertEqual(mapper.map(ShowroomPayload(t: LenientInt(104))), .restart)
        // A comment with no text still shows a row, with a placeholder.
        if case .emit(.comment(let line)) = mapper.map(ShowroomPayload(t: LenientInt(1), cm: "")) {
            XCTAssertEqual(line.text, "…")
            XCTAssertEqual(line.user, "SHOWROOM")
        } else {
            XCTFail("an empty comment is a row")
        }
    }

    func testChatHostMustBeShowroomsUnlessTheServerIsReplaced() {
        let feed = ShowroomChatFeed(roomKey: "k", api: WebAPI(web: EmbeddedWeb(), base: "https://www.showroom-live.com"),
                                    requiresShowroomChatHost: true)
        XCTAssertEqual(feed.chatEndpoint(host: "online.showroom-live.com")?.description, "wss://online.showroom-live.com:443/")
        XCTAssertNil(feed.chatEndpoint(host: "evil.example"))
        XCTAssertNil(feed.chatEndpoint(host: "online.showroom-live.com/../x"))
        XCTAssertNil(feed.chatEndpoint(host: "file:///etc/passwd"))
        let relay = ShowroomChatFeed(roomKey: "k", api: WebAPI(web: EmbeddedWeb(), base: "https://relay.example"),
                                     requiresShowroomChatHost: false)
        XCTAssertNotNil(relay.chatEndpoint(host: "chat.relay.example"))
    }

    func testServiceRefusesBadSettings() {
        XCTAssertThrowsError(try SHOWROOMService.description.makeFeed(FeedRequest(streamID: "", web: EmbeddedWeb())))
        XCTAssertThrowsError(try SHOWROOMService.description.makeFeed(FeedRequest(streamID: "k", server: "http://x", web: EmbeddedWeb())))
        XCTAssertNoThrow(try SHOWROOMService.description.makeFeed(FeedRequest(streamID: "k", server: "https://localhost:8443/", web: EmbeddedWeb())))
    }
}
