// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarActions
import CommentBarCore
import XCTest

/// Which rules a row runs, and the flat `args` each DoAction carries.
final class ActionMatcherTests: XCTestCase {
    let rules = ActionRule.parse(["first_time=Welcome", "gift_min:500=Big thanks", "keyword:ラーメン=Ramen",
                                  "welcome_back=Back", "ng=Timeout"]).rules
    var matcher: ActionMatcher {
        ActionMatcher(rules: rules, filters: ChatFilters(ngWords: ["badword"]), welcomeBackDays: 30)
    }

    func row(_ line: ChatLine) -> ActionRow { ActionRow(line: line, platform: "youtube", channel: "UCstream") }

    func testAFirstTimeViewerRunsTheWelcomeWithTheirName() {
        var line = ChatLine(id: "m1", user: "Sakura", login: "UCsakura", text: "はじめまして")
        line.marks = [RowMark(.firstTime, "初見")]
        line.nickname = "さくら"
        line.channel = "UCchannel"
        let actions = matcher.actions(shown: row(line), original: row(line)).map(\.request)
        XCTAssertEqual(actions, [DoAction(action: "Welcome", args: [
            "event": .text("first_time"), "platform": .text("youtube"), "channel": .text("UCchannel"),
            "user": .text("UCsakura"), "name": .text("Sakura"), "nickname": .text("さくら"), "text": .text("はじめまして"),
            "first_time": .flag(true), "id": .text("m1"),
        ])])
    }

    func testAGiftOverNRunsWithItsAmount() throws {
        let small = ChatLine(id: "g1", user: "A", text: "", kind: .gift(name: "¥200", count: 1))
        XCTAssertEqual(matcher.actions(shown: row(small), original: row(small)).map(\.request), [])
        let big = ChatLine(id: "g2", user: "B", text: "応援してます", kind: .gift(name: "¥1,000", count: 1))
        let actions = matcher.actions(shown: row(big), original: row(big)).map(\.request)
        XCTAssertEqual(actions.map(\.action), ["Big thanks"])
        let args = try XCTUnwrap(actions.first?.args)
        XCTAssertEqual(args["amount"], .number(1000))
        XCTAssertEqual(args["currency"], .text("JPY"))
        XCTAssertEqual(args["gift"], .text("¥1,000"))
        XCTAssertEqual(args["count"], .integer(1))
        XCTAssertEqual(args["first_time"], .flag(false))
    }

    func testAKeywordMatchesAsNGWordsDo() {
        for text in ["ラーメン食べたい", "ﾗｰﾒﾝ食べたい"] {
            let line = ChatLine(id: "k", user: "C", text: text)
            XCTAssertEqual(matcher.actions(shown: row(line), original: row(line)).map(\.request).map(\.action), ["Ramen"], text)
        }
        let other = ChatLine(id: "k2", user: "C", text: "うどん")
        XCTAssertEqual(matcher.actions(shown: row(other), original: row(other)).map(\.request), [])
    }

    func testAFilteredCommentRunsNothing() {
        var line = ChatLine(id: "f1", user: "Nightbot", text: "ラーメン !command")
        line.marks = [RowMark(.firstTime, "初見")]
        XCTAssertEqual(matcher.actions(shown: nil, original: row(line)).map(\.request), [])
        var history = ChatLine(id: "h1", user: "D", text: "ラーメン", isHistory: true)
        history.marks = [RowMark(.firstTime, "初見")]
        XCTAssertEqual(matcher.actions(shown: row(history), original: row(history)).map(\.request), [])
    }

    func testNGRunsWithTheMaskedText() throws {
        let original = ChatLine(id: "n1", user: "E", login: "e", text: "you badword")
        var shown = original
        shown.text = "you ＊＊＊＊＊＊＊"
        let actions = matcher.actions(shown: row(shown), original: row(original)).map(\.request)
        XCTAssertEqual(actions.map(\.action), ["Timeout"])
        let args = try XCTUnwrap(actions.first?.args)
        XCTAssertEqual(args["user"], .text("e"))
        XCTAssertEqual(args["hidden"], .flag(false))
        guard case .text(let text) = args["text"] else { return XCTFail("no text") }
        XCTAssertFalse(text.contains("badword"), text)
    }

    func testWelcomeBackSaysTheDays() throws {
        var line = ChatLine(id: "b1", user: "F", text: "ただいま")
        line.marks = [RowMark(.back, "おかえり")]
        let actions = matcher.actions(shown: row(line), original: row(line)).map(\.request)
        XCTAssertEqual(actions.map(\.action), ["Back"])
        XCTAssertEqual(actions.first?.args["welcome_back_days"], .integer(30))
    }

    func testThePinRules() {
        let matcher = ActionMatcher(rules: ActionRule.parse(["pin=Show it"]).rules, filters: .none, welcomeBackDays: 0)
        let line = ChatLine(id: "0/p", user: "G", text: "質問です")
        XCTAssertEqual(matcher.actions(pinned: row(line)).map(\.request).map(\.action), ["Show it"])
        XCTAssertEqual(matcher.actions(shown: row(line), original: row(line)).map(\.request), [])
    }

    func testEachActionNamesItsRule() {
        let matcher = ActionMatcher(rules: ActionRule.parse(["comment=Log", "gift_min:100=Big thanks", "keyword:ラーメン=Ramen"]).rules,
                                    filters: .none, welcomeBackDays: 0)
        let gift = ChatLine(id: "g", user: "H", text: "", kind: .gift(name: "Bits", count: 150))
        let comment = ChatLine(id: "c", user: "H", text: "ラーメン")
        XCTAssertEqual(matcher.actions(shown: row(gift), original: row(gift)).map(\.rule.label), ["gift_min:100=Big thanks"])
        XCTAssertEqual(matcher.actions(shown: row(comment), original: row(comment)).map(\.rule.label),
                       ["comment=Log", "keyword:ラーメン=Ramen"])
        XCTAssertEqual(matcher.actions(shown: row(comment), original: row(comment)).map(\.rule.yields), [true, false])
    }

    func testTheRequestsAreStreamerBotsShapes() throws {
        let action = DoAction(action: "Welcome", args: ["user": .text("a/b"), "amount": .number(500), "first_time": .flag(true)])
        XCTAssertEqual(String(decoding: action.httpBody, as: UTF8.self),
                       #"{"action":{"name":"Welcome"},"args":{"amount":500,"first_time":true,"user":"a/b"}}"#)
        XCTAssertEqual(String(decoding: action.request(id: "commentbar-1"), as: UTF8.self),
                       #"{"action":{"name":"Welcome"},"args":{"amount":500,"first_time":true,"user":"a/b"},"id":"commentbar-1","request":"DoAction"}"#)
    }
}
