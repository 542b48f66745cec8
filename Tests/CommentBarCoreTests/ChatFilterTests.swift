// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import FoundationEssentials
import XCTest

final class ChatFilterTests: XCTestCase {
    private func line(_ text: String, user: String = "viewer", login: String? = nil,
                      kind: ChatLine.Kind = .comment) -> ChatLine {
        ChatLine(id: UUID().uuidString, user: user, login: login, text: text, kind: kind)
    }

    func testWidthAndCaseFolding() {
        XCTAssertEqual(TextFolding.foldedString("ＮＧ Word"), "ng word")
        XCTAssertEqual(TextFolding.foldedString("ＡＢＣ！"), "abc!")
        XCTAssertEqual(TextFolding.foldedString("日本語"), "日本語")
    }

    func testNGWordsAreMaskedOrHideTheRow() {
        let mask = NGWordFilter(words: WordMatcher(words: ["ng", "ばか"]), mode: .mask)
        XCTAssertEqual(mask.apply("this is ＮＧ and Ng"), "this is ＊＊ and ＊＊")
        XCTAssertEqual(mask.apply("ばかじゃない"), "＊＊じゃない")
        XCTAssertEqual(mask.apply("fine"), "fine")
        let hide = NGWordFilter(words: WordMatcher(words: ["ng"]), mode: .hide)
        XCTAssertNil(hide.apply("NG!"))
    }

    func testARegexLookingWordIsLiteral() {
        let filter = NGWordFilter(words: WordMatcher(words: [".*", "a+b"]), mode: .mask)
        XCTAssertEqual(filter.apply("anything at all"), "anything at all")
        XCTAssertEqual(filter.apply("x.*y a+b"), "x＊＊y ＊＊＊")
    }

    func testTenThousandWordsStillMatch() {
        let words = (0..<10_000).map { "word\($0)x" }
        let filter = NGWordFilter(words: WordMatcher(words: words), mode: .mask)
        XCTAssertEqual(filter.apply("say word9999x now"), "say ＊＊＊＊＊＊＊＊＊ now")
        XCTAssertEqual(filter.apply("say word10000x"), "say word10000x")
    }

    func testBotsAndHiddenUsers() {
        let bots = BotFilter(hideKnownBots: true, extraNames: ["MyBot"])
        XCTAssertTrue(bots.isBot(line("hi", user: "Nightbot")))
        XCTAssertTrue(bots.isBot(line("hi", user: "Display", login: "streamelements")))
        XCTAssertTrue(bots.isBot(line("hi", user: "mybot")))
        XCTAssertFalse(bots.isBot(line("hi", user: "NightbotFan")))
        XCTAssertFalse(BotFilter(hideKnownBots: false, extraNames: []).isBot(line("hi", user: "Nightbot")))
        let hidden = HiddenUserFilter(["@Troll", "ＳＰＡＭＭＥＲ"])
        XCTAssertTrue(hidden.isHidden(line("x", user: "troll")))
        XCTAssertTrue(hidden.isHidden(line("x", user: "Spammer")))
        XCTAssertFalse(hidden.isHidden(line("x", user: "friend")))
    }

    func testCommands() {
        XCTAssertTrue(CommandFilter.isCommand("!uptime"))
        XCTAssertTrue(CommandFilter.isCommand("  ！ping"))
        XCTAssertFalse(CommandFilter.isCommand("hi!"))
        XCTAssertFalse(CommandFilter.isCommand(""))
    }

    func testHighlights() {
        let highlighter = Highlighter(names: ["さくら", "Sakura"], paidTiers: true, firstMessages: true)
        XCTAssertEqual(highlighter.highlight(line("hi ＳＡＫＵＲＡ!"), isFirstMessage: false), Highlighter.mention)
        XCTAssertEqual(highlighter.highlight(line("hi 𝐬𝐚𝐤𝐮𝐫𝐚"), isFirstMessage: false), Highlighter.mention)
        XCTAssertEqual(highlighter.highlight(line("hello"), isFirstMessage: true), Highlighter.firstMessage)
        XCTAssertNil(highlighter.highlight(line("hello"), isFirstMessage: false))
        XCTAssertEqual(highlighter.highlight(line("", kind: .gift(name: "Bits", count: 1000)), isFirstMessage: false),
                       Highlighter.paidTiers[2].color)
        XCTAssertNil(highlighter.highlight(line("", kind: .gift(name: "Bits", count: 5)), isFirstMessage: false))
        var superChat = line("thanks", kind: .gift(name: "¥1,000", count: 1))
        superChat.highlight = RGBColor(hex: "#1de9b6")
        XCTAssertEqual(highlighter.highlight(superChat, isFirstMessage: true), RGBColor(hex: "#1de9b6"),
                       "the platform's tier colour wins")
    }

    func testFiltersThroughTheBarState() {
        var state = BarState()
        state.filters = ChatFilters(ngWords: ["ng"], highlightNames: ["streamer"])
        state.apply(.comment(line("!uptime")))
        state.apply(.comment(line("hello", user: "Nightbot")))
        state.apply(.comment(line("first!", user: "new")))
        state.apply(.comment(line("that is NG, streamer", user: "new")))
        state.apply(.gift(line("", user: "payer", kind: .gift(name: "Bits", count: 100))))
        XCTAssertEqual(state.lines.map(\.text), ["first!", "that is ＊＊, streamer", ""])
        XCTAssertEqual(state.lines.map(\.highlight), [Highlighter.firstMessage, Highlighter.mention, Highlighter.paidTiers[3].color])
        XCTAssertEqual(state.giftsTotal, 100)
    }

    func testListSettingsTakeBothForms() throws {
        let json = #"{"ng_words":["a",{"value":"b","selected":false},{"value":""},7],"feeds":[{"value":"twitch:x"}],"ng_mode":"hide"}"#
        let settings = try BarSettings.decode(json: Data(json.utf8))
        XCTAssertEqual(settings.ngWords, ["a", "b"])
        XCTAssertEqual(settings.feeds, ["twitch:x"])
        XCTAssertEqual(settings.ngMode, .hide)
        // Settings from an older version: no lists, the single stream as before, filters at their defaults.
        let old = try BarSettings.decode(json: Data(#"{"service":"twitch","stream_id":"name"}"#.utf8))
        XCTAssertEqual(old.feeds, [])
        XCTAssertEqual(old.streamID, "name")
        XCTAssertTrue(old.hideBots)
        XCTAssertTrue(old.hideCommands)
    }
}

/// Issue 19, finding 5: invisible characters and bidi controls cannot disguise an NG word or a name.
final class DisguisedTextTests: XCTestCase {
    private let mask = NGWordFilter(words: WordMatcher(words: ["badword"]), mode: .mask)

    func testInvisibleCharactersDoNotHideAnNGWord() {
        XCTAssertEqual(mask.apply("b\u{200B}ad\u{200B}word"), "＊\u{200B}＊＊\u{200B}＊＊＊＊")
        XCTAssertEqual(mask.apply("bad\u{00AD}word!"), "＊＊＊\u{00AD}＊＊＊＊!")
        XCTAssertEqual(mask.apply("ba\u{2060}dwo\u{FEFF}rd"), "＊＊\u{2060}＊＊＊\u{FEFF}＊＊")
        XCTAssertEqual(mask.apply("bad\u{200D}word"), "＊＊＊＊＊＊＊", "a joiner is part of the character before it")
        XCTAssertEqual(mask.apply("b\u{202A}adword"), "＊\u{202A}＊＊＊＊＊＊")
        XCTAssertEqual(mask.apply("bad word"), "bad word")
    }

    /// Through a whole row as the bar applies it: the override is dropped (the text shows as sent,
    /// in logical order) and the disguised words are masked.
    func testRowsWithDisguisedWordsAreMasked() {
        var state = BarState()
        state.filters = ChatFilters(ngWords: ["badword"])
        for (index, text) in ["b\u{200B}ad\u{200B}word", "bad\u{00AD}word", "\u{202E}drowdab"].enumerated() {
            state.apply(.comment(ChatLine(id: "\(index)", user: "u\(index)", text: text)))
        }
        let shown = state.lines.map(\.text)
        XCTAssertFalse(shown[0].contains("a"), shown[0])
        XCTAssertFalse(shown[1].contains("a"), shown[1])
        XCTAssertEqual(shown[2], "drowdab", "the override is gone: the text reads as sent, not as badword")
        XCTAssertFalse(shown.joined().unicodeScalars.contains { TextSanitizer.isBidiEmbeddingOrIsolate($0) })
    }

    func testNamesAreComparedWithoutInvisibleCharacters() {
        let hidden = HiddenUserFilter(["troll"])
        XCTAssertTrue(hidden.isHidden(ChatLine(id: "1", user: "tr\u{200B}oll", text: "hi")))
        XCTAssertTrue(hidden.isHidden(ChatLine(id: "2", user: "tro\u{202E}ll", text: "hi")))
    }

    func testLogLinesShowBidiControlsEscaped() {
        XCTAssertEqual(TextSanitizer.escapedForTerminal("a\u{202E}b\u{1B}[31mc\u{9B}"), "a\\u{202e}b\\u{1b}[31mc\\u{9b}")
        XCTAssertEqual(TextSanitizer.escapedForTerminal("{\"t\":\"x\u{202E}\u{9B}\"}", json: true), #"{"t":"x\u202e\u009b"}"#)
    }

    func testStatusTextIsOneBoundedLine() {
        let status = FeedStatus.error(message: String(repeating: "line\n\u{1B}[2J", count: 100_000)).sanitized
        XCTAssertFalse(status.detail.contains("\n"))
        XCTAssertFalse(status.detail.contains("\u{1B}"))
        XCTAssertLessThanOrEqual(status.detail.unicodeScalars.count, TextSanitizer.maxStatusScalars + 1)
    }
}

extension NGWordFilter {
    /// A text as the filter shows it: masked, or nil when its row is hidden.
    func apply(_ text: String) -> String? {
        mode == .hide && contains(text) ? nil : masked(text)
    }
}

extension BotFilter {
    func isBot(_ line: ChatLine) -> Bool { isBot(UserNames(line)) }
}

extension HiddenUserFilter {
    func isHidden(_ line: ChatLine) -> Bool { isHidden(UserNames(line)) }
}

extension Highlighter {
    func highlight(_ line: ChatLine, isFirstMessage: Bool) -> RGBColor? {
        highlight(line, text: TextFolding.fold(line.text), isFirstMessage: isFirstMessage)
    }
}
