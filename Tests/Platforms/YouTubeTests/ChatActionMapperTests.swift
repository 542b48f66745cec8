// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import YouTubePlatform

/// Recorded live-chat actions → bar events.
final class ChatActionMapperTests: XCTestCase {
    private func events(_ actions: [ChatAction]) -> [FeedEvent] {
        actions.flatMap(ChatActionMapper.events(for:))
    }

    private func line(_ event: FeedEvent?) -> ChatLine? {
        switch event {
        case .comment(let line), .gift(let line): return line
        default: return nil
        }
    }

    func testChatDownloaderRecordedActions() throws {
        let actions = try Fixtures.actions("chat_downloader_actions.json")
        XCTAssertEqual(actions.count, 19)
        let mapped = actions.map(ChatActionMapper.events(for:))

        // A text message with an emoji that YouTube sent as text.
        let text = try XCTUnwrap(line(mapped[0].first))
        XCTAssertEqual(mapped[0].count, 1)
        guard case .comment = mapped[0][0] else { return XCTFail("a text message is a comment") }
        XCTAssertEqual(text.text, "Consistency Level ASL ❤️")
        XCTAssertEqual(text.user, "Naruto Uzumaki")
        XCTAssertEqual(text.login, "UCoVFvNv-7cuHNC9v_XKEXhA")
        XCTAssertEqual(text.id, "CjoKGkNJLTRuSUMyMHUwQ0ZRMktnZ29kdEZjTjZREhxDTXZ0NEtxMDB1MENGUVhwYUFvZHFnUUxVdy0x")

        // The "welcome to live chat" blurb is not a row.
        XCTAssertEqual(mapped[1], [])

        // A new member: a notice on the membership colour.
        let member = try XCTUnwrap(line(mapped[2].first))
        XCTAssertEqual(member.kind, .notice)
        XCTAssertEqual(member.text, "New member")
        XCTAssertEqual(member.user, "bifta89")
        XCTAssertEqual(member.badges, ["member"])
        XCTAssertEqual(member.highlight, ChatActionMapper.membershipColor)

        // A charity donation announcement is not a paid message of the channel: no row.
        XCTAssertEqual(mapped[3], [])

        // A Super Sticker: the amount as the gift's name, the sticker's label as text, the chip colour.
        let sticker = try XCTUnwrap(line(mapped[4].first))
        XCTAssertEqual(sticker.kind, .gift(name: "$9.99", count: 1))
        XCTAssertEqual(sticker.text, "Shiba dog dressed in a traditional outfit waving Japanese fans")
        XCTAssertEqual(sticker.highlight, RGBColor(hex: "#ffca28"))

        // Slow mode notices, ticker items, tooltips, banners, polls: never rows.
        for index in [5, 6, 10, 11, 12, 14, 15, 16, 17, 18] {
            XCTAssertEqual(mapped[index], [], "action \(index)")
        }

        // Deletions: one message (its %3D-encoded id matches the item's =), all of an author's.
        XCTAssertEqual(mapped[7], [.delete(id: "CkUKGkNNV3k0WUcyMHUwQ0ZZa3NyUVlkRlYwUHpREidDSi1HanZLMDB1MENGWW1UY0FvZEdaWUw2QTE2MDgxMTg5NzI2Njc=")])
        XCTAssertEqual(mapped[8], [.deleteUser(user: "UCunTx7KcIG50KLggQdd5JEQ")])

        // A message replaced by a placeholder keeps its id and shows a placeholder text.
        let replaced = try XCTUnwrap(line(mapped[9].first))
        XCTAssertEqual(replaced.id, "CkUKGkNManQyNHV6MHUwQ0ZZV3hnZ29kdHBvTGpnEidDSW1QdmFpdjB1MENGY2tPdHdBZFE4QU1nUTE2MDgxMTgxODg3MTA=")
        XCTAssertEqual(replaced.text, ChatActionMapper.placeholderText)
        XCTAssertFalse(line(mapped[13].first)?.text.isEmpty ?? true)
    }

    func testPytchatSuperChatIsOneGiftRowWithTheTierColour() throws {
        let response = try Fixtures.response("pytchat_superchat.json")
        let mapped = events(response.actions)
        XCTAssertEqual(mapped.count, 1, "the ticker item repeating the Super Chat adds no row")
        let paid = try XCTUnwrap(line(mapped.first))
        guard case .gift = mapped[0] else { return XCTFail("a Super Chat is a gift") }
        XCTAssertEqual(paid.kind, .gift(name: "￥800", count: 1))
        XCTAssertEqual(paid.text, "dummy_message")
        XCTAssertEqual(paid.user, "author_name")
        XCTAssertEqual(paid.login, "author_channel_id")
        // bodyBackgroundColor 4280150454 = 0xFF1DE9B6
        XCTAssertEqual(paid.highlight, RGBColor(red: 0x1D, green: 0xE9, blue: 0xB6))
        XCTAssertEqual(response.next?.continuation, "___continuation___")
        XCTAssertEqual(response.next?.timeoutMs, 10000)
    }

    func testPytchatStickerMembershipAndText() throws {
        let sticker = try XCTUnwrap(line(events(Fixtures.response("pytchat_supersticker.json").actions).first))
        XCTAssertEqual(sticker.kind, .gift(name: "￥200", count: 1))
        XCTAssertEqual(sticker.text, "___sticker_label___")
        let member = try XCTUnwrap(line(events(Fixtures.response("pytchat_newSponsor_current.json").actions).first))
        XCTAssertEqual(member.kind, .notice)
        XCTAssertEqual(member.text, "新規メンバー")
        let text = try XCTUnwrap(line(events(Fixtures.response("pytchat_textmessage.json").actions).first))
        XCTAssertEqual(text.text, "dummy_message")
    }

    func testPytchatStreamHasNoTickerRowsAndNoEmptyComments() throws {
        let response = try Fixtures.response("pytchat_test_stream.json")
        let mapped = events(response.actions)
        let tickers = response.actions.filter { $0.addChatItemAction == nil && $0.replaceChatItemAction == nil }
        XCTAssertFalse(tickers.isEmpty)
        XCTAssertTrue(tickers.allSatisfy { ChatActionMapper.events(for: $0).isEmpty })
        for event in mapped {
            if case .comment(let line) = event { XCTAssertFalse(line.text.isEmpty) }
        }
        let gifts = mapped.filter { if case .gift = $0 { return true } else { return false } }
        let paidItems = response.actions.filter {
            $0.addChatItemAction?.item?.liveChatPaidMessageRenderer != nil || $0.addChatItemAction?.item?.liveChatPaidStickerRenderer != nil
        }
        XCTAssertEqual(gifts.count, paidItems.count, "each Super Chat / Super Sticker is exactly one gift row")
        XCTAssertEqual(response.next?.timeoutMs, 5000)
    }

    func testEmojiBadgesGiftsMilestonesAndNewerRemovals() throws {
        let mapped = try Fixtures.actions("extra_actions.json").map(ChatActionMapper.events(for:))
        let owner = try XCTUnwrap(line(mapped[0].first))
        XCTAssertEqual(owner.text, "hi 😂 :yt: :_けーぴー:")
        XCTAssertEqual(owner.badges, ["broadcaster", "verified"])
        let moderator = try XCTUnwrap(line(mapped[1].first))
        XCTAssertEqual(moderator.badges, ["moderator", "member"])
        let paid = try XCTUnwrap(line(mapped[2].first))
        XCTAssertEqual(paid.kind, .gift(name: "$5.00", count: 1))
        XCTAssertEqual(paid.text, "love the stream ❤")
        let milestone = try XCTUnwrap(line(mapped[3].first))
        XCTAssertEqual(milestone.kind, .notice)
        XCTAssertEqual(milestone.text, "Member for 6 months — still here")
        let gift = try XCTUnwrap(line(mapped[4].first))
        guard case .gift = mapped[4][0] else { return XCTFail("gifted memberships are a gift") }
        XCTAssertEqual(gift.kind, .gift(name: "Gift memberships", count: 50))
        XCTAssertEqual(gift.user, "Santa")
        XCTAssertEqual(gift.login, "UC0Fruh1Rn-PPpb8lrkww_ew")
        XCTAssertEqual(gift.text, "Gifted 50 The Channel memberships")
        XCTAssertEqual(mapped[5], [], "a redemption (one per recipient) is not a second row")
        XCTAssertEqual(mapped[6], [], "ticker items never add a row")
        let edited = try XCTUnwrap(line(mapped[7].first))
        XCTAssertEqual(edited.id, "ChwKGkNNb2RNc2dJZDAwMDAwMDAwMDAwMDAwMDAw")
        XCTAssertEqual(edited.text, "please keep it civil (edited)")
        XCTAssertEqual(mapped[8], [.delete(id: "ChwKGkNKU3VwZXJDaGF0NVVTRDAwMDAwMDAwMDAw")])
        XCTAssertEqual(mapped[9], [.deleteUser(user: "UColdfan00000000000000000")])
    }

    func testNumbersAndColours() {
        XCTAssertEqual(ChatActionMapper.firstNumber(in: "Gifted 1,000 memberships"), 1000)
        XCTAssertEqual(ChatActionMapper.firstNumber(in: "no number"), nil)
        XCTAssertEqual(ChatActionMapper.firstNumber(in: "99999999999999999999"), 999_999_999)
        XCTAssertEqual(ChatActionMapper.color(4_278_239_141), RGBColor(hex: "#00bfa5"))
        XCTAssertNil(ChatActionMapper.color(-1))
        XCTAssertNil(ChatActionMapper.color(1 << 40))
    }

    func testMalformedActionsAreSkippedNotFatal() throws {
        let json = #"""
        {"continuationContents": {"liveChatContinuation": {
          "continuations": [{"timedContinuationData": {"continuation": "next", "timeoutMs": "2500"}}],
          "actions": [
            {"addChatItemAction": {"item": {"liveChatTextMessageRenderer": {"id": 5, "message": "not runs"}}}},
            {"addChatItemAction": {"item": {"liveChatTextMessageRenderer": {"id": "ok", "message": {"runs": [{"text": ""}]}}}}},
            "a string",
            {"markChatItemAsDeletedAction": {"targetItemId": ""}}
          ]}}}
        """#
        let response = try JSONDecoder().decode(LiveChatResponse.self, from: Data(json.utf8))
        XCTAssertEqual(response.undecodedActions, 2)
        XCTAssertEqual(response.next?.continuation, "next")
        XCTAssertEqual(response.next?.timeoutMs, 2500)
        let mapped = events(response.actions)
        XCTAssertEqual(mapped.count, 1)
        XCTAssertEqual(line(mapped.first)?.text, ChatActionMapper.emptyText)
    }

    func testDeeplyNestedJSONIsAnErrorNotACrash() {
        let depth = 100_000
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertThrowsError(try JSONDecoder().decode(LiveChatResponse.self, from: Data(json.utf8)))
        let nestedObject = #"{"continuationContents":"# + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth + 1)
        XCTAssertThrowsError(try JSONDecoder().decode(LiveChatResponse.self, from: Data(nestedObject.utf8)))
    }

    func testPollDelayIsClamped() {
        XCTAssertEqual(YouTubeChatFeed.pollDelay(timeoutMs: 0), .seconds(1))
        XCTAssertEqual(YouTubeChatFeed.pollDelay(timeoutMs: -5), .seconds(1))
        XCTAssertEqual(YouTubeChatFeed.pollDelay(timeoutMs: 2500), .milliseconds(2500))
        XCTAssertEqual(YouTubeChatFeed.pollDelay(timeoutMs: 600_000), .seconds(8))
        XCTAssertEqual(YouTubeChatFeed.pollDelay(timeoutMs: nil), .seconds(5))
    }
}
