// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import NiconicoPlatform

final class MessageMapperTests: XCTestCase {
    private func map(_ bytes: [UInt8]) throws -> [MessageMapper.Output] {
        MessageMapper.map(try NDGRChunkedMessage(serializedBytes: bytes))
    }

    func testChats() throws {
        XCTAssertEqual(try map(NDGRFixtures.namedChat), [.event(.comment(ChatLine(
            id: "m1", user: "太郎", login: "12345", text: "こんにちは", color: RGBColor(red: 0, green: 0, blue: 0xFF),
            badges: ["premium/1"])))])
        XCTAssertEqual(try map(NDGRFixtures.anonymousChat), [.event(.comment(ChatLine(
            id: "m2", user: "匿名 Xk3p", login: "a:Xk3pQzAbCdEf", text: "184です")))])
    }

    func testGiftsAndNicoad() throws {
        XCTAssertEqual(try map(NDGRFixtures.gift), [.event(.gift(ChatLine(
            id: "m3", user: "ギフト太郎", login: "555", text: "おめでとう", kind: .gift(name: "ケーキ 500pt", count: 1))))])
        XCTAssertEqual(try map(NDGRFixtures.nicoadV0), [.event(.gift(ChatLine(
            id: "m4", user: "広告主", text: "", kind: .gift(name: "ニコニ広告 300pt", count: 1))))])
        XCTAssertEqual(try map(NDGRFixtures.nicoadV1), [.event(.comment(ChatLine(
            id: "m5", user: "ニコニ広告", text: "【ニコニ広告】広告主さんが300pt広告しました", kind: .notice)))])
    }

    func testNoticesAndStates() throws {
        XCTAssertEqual(try map(NDGRFixtures.emotion), [.event(.comment(ChatLine(
            id: "m6", user: "エモーション", text: "88888", kind: .notice)))])
        XCTAssertEqual(try map(NDGRFixtures.operatorComment), [.event(.comment(ChatLine(
            id: "m7", user: "運営", text: "お知らせ", kind: .notice)))])
        XCTAssertEqual(try map(NDGRFixtures.statistics), [.event(.viewers(4321))])
        XCTAssertEqual(try map(NDGRFixtures.programEnded), [.programmeEnded])
        guard case .unknown? = try map(NDGRFixtures.unknownPayload).first else { return XCTFail("not unknown") }
    }

    func testCommentsNeverHaveEmptyText() {
        var chat = NDGRChat()
        chat.content = ""
        chat.no = 3
        let line = MessageMapper.comment(chat, id: nil)
        XCTAssertEqual(line.text, MessageMapper.emptyCommentPlaceholder)
        XCTAssertEqual(line.id, "chat-3")
        XCTAssertEqual(line.user, "匿名")
    }

    func testColours() {
        var modifier = NDGRChat.Modifier()
        XCTAssertNil(MessageMapper.color(modifier))
        modifier.namedColor = .white
        XCTAssertNil(MessageMapper.color(modifier))
        modifier.namedColor = .orange2
        XCTAssertEqual(MessageMapper.color(modifier), RGBColor(hex: "#ff6600"))
        var full = NDGRChat.Modifier.FullColor()
        full.r = -4
        full.g = 128
        full.b = 9999
        modifier.fullColor = full
        XCTAssertEqual(MessageMapper.color(modifier), RGBColor(red: 0, green: 128, blue: 255))
    }

    func testRecentSetForgetsTheOldest() {
        var set = RecentSet(capacity: 2)
        XCTAssertTrue(set.insert("a"))
        XCTAssertFalse(set.insert("a"))
        XCTAssertTrue(set.insert("b"))
        XCTAssertTrue(set.insert("c"))
        XCTAssertTrue(set.insert("a"))
        XCTAssertFalse(set.insert("c"))
    }
}
