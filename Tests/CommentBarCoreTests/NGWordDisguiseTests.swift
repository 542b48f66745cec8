// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import XCTest

/// Issue 28: NG words in disguise (half-width kana, full-width, mathematical and circled letters,
/// Greek and Cyrillic look-alikes, combining marks) are masked, exactly over the disguised run;
/// ordinary Japanese text is left alone; names and gift names are filtered like the text.
final class NGWordDisguiseTests: XCTestCase {
    private let mask = NGWordFilter(words: WordMatcher(words: ["アホ", "バカ", "aho", "cope", "pace"]), mode: .mask)

    func testHalfWidthKanaIsTheWord() {
        XCTAssertEqual(mask.apply("おまえｱﾎだろ"), "おまえ＊＊だろ")
        // ﾊﾞ is two scalars, one character, folded to the one letter バ: one ＊ for it.
        XCTAssertEqual(mask.apply("ﾊﾞｶじゃないの"), "＊＊じゃないの")
        XCTAssertEqual(mask.apply("ﾊﾞｶﾊﾞｶ!"), "＊＊＊＊!")
        XCTAssertEqual(mask.apply("アﾎ"), "＊＊", "half half-width")
    }

    func testFullWidthMathematicalAndCircledLettersAreTheWord() {
        XCTAssertEqual(mask.apply("ｙｏｕ ＡＨＯ!"), "ｙｏｕ ＊＊＊!")
        XCTAssertEqual(mask.apply("so 𝐚𝐡𝐨 really"), "so ＊＊＊ really")
        XCTAssertEqual(mask.apply("𝒂𝒉𝒐"), "＊＊＊")
        XCTAssertEqual(mask.apply("𝔄𝔥𝔬?"), "＊＊＊?")
        XCTAssertEqual(mask.apply("ⓐⓗⓞ"), "＊＊＊")
        XCTAssertEqual(mask.apply("Ⓐⓗⓞ desu"), "＊＊＊ desu")
    }

    func testCyrillicAndGreekLookAlikesAreTheLatinWord() {
        // а о е р с in Cyrillic, alone and mixed with Latin letters, small and capital.
        XCTAssertEqual(mask.apply("you \u{0441}\u{043E}\u{0440}\u{0435}"), "you ＊＊＊＊")
        XCTAssertEqual(mask.apply("p\u{0430}\u{0441}e it"), "＊＊＊＊ it")
        XCTAssertEqual(mask.apply("\u{0421}\u{041E}\u{0420}\u{0415}!"), "＊＊＊＊!")
        // Greek capitals alpha, eta, omicron.
        XCTAssertEqual(mask.apply("\u{0391}\u{0397}\u{039F}"), "＊＊＊")
        // A Cyrillic letter that only resembles nothing Latin stays itself: not a match.
        XCTAssertEqual(mask.apply("\u{0434}ho"), "\u{0434}ho")
    }

    func testACombiningMarkOnOneLetterIsTheWord() {
        XCTAssertEqual(mask.apply("a\u{0301}ho"), "＊＊＊", "a and its mark are one character: one ＊")
        XCTAssertEqual(mask.apply("\u{00E1}ho"), "＊＊＊", "precomposed á")
        XCTAssertEqual(mask.apply("ah\u{0336}o!"), "＊＊＊!", "a strike-through mark")
        XCTAssertEqual(mask.apply("ア\u{0308}ホ"), "＊＊")
        XCTAssertEqual(mask.apply("a\u{0301}\u{0302}\u{0303}\u{0304}h\u{20DD}o"), "＊＊＊", "marks stacked, an enclosing one")
    }

    func testEveryDisguiseTogetherStillMasksOnlyTheRun() {
        // Cyrillic а, an invisible joiner, a mathematical h, a circled o.
        let text = "ok \u{0430}\u{200B}𝐡ⓞ ok"
        XCTAssertEqual(mask.apply(text), "ok ＊\u{200B}＊＊ ok")
    }

    /// The kana sound marks make other letters: they are never stripped, and kana stay kana, so
    /// text the old matcher left alone is still left alone.
    func testOrdinaryJapaneseIsNotMatched() {
        for text in ["アポロ11号", "アボカド", "ハカセになりたい", "ﾊｶｾ", "バイカル湖", "あほうどり", "ばかりでなく",
                     "パカパカ", "カバ", "ほあ"] {
            XCTAssertEqual(mask.apply(text), text)
        }
        let plain = NGWordFilter(words: WordMatcher(words: ["ハカ", "ホ"]), mode: .mask)
        XCTAssertEqual(plain.apply("バカ"), "バカ", "ハカ is not バカ")
        XCTAssertEqual(plain.apply("ﾊﾞｶ"), "ﾊﾞｶ")
        XCTAssertEqual(plain.apply("ポ ボ ﾎﾟ"), "ポ ボ ﾎﾟ")
        XCTAssertEqual(plain.apply("ホ ﾎ"), "＊ ＊")
    }

    func testAWordTypedInDisguiseMatchesThePlainText() {
        let typed = NGWordFilter(words: WordMatcher(words: ["ｱﾎ", "ﾊﾞｶ", "ＡＨＯ"]), mode: .mask)
        XCTAssertEqual(typed.apply("アホ バカ aho"), "＊＊ ＊＊ ＊＊＊")
    }

    func testOneCharacterThatFoldsToSeveralIsMaskedWhole() {
        let filter = NGWordFilter(words: WordMatcher(words: ["fine", "平成"]), mode: .mask)
        XCTAssertEqual(filter.apply("\u{FB01}ne day"), "＊＊＊ day", "ﬁ is one character")
        XCTAssertEqual(filter.apply("\u{337B}元年"), "＊元年", "㍻ is one character")
    }

    func testHideModeHidesADisguisedWord() {
        let hide = NGWordFilter(words: WordMatcher(words: ["アホ"]), mode: .hide)
        XCTAssertNil(hide.apply("ｱﾎ"))
        XCTAssertEqual(hide.apply("アポ"), "アポ")
    }

    /// The shortcut (`isFoldedAlready`: a character folding leaves as it is, not normalized) gives
    /// what normalizing would, for every such character of planes 0 to 3, and is taken for
    /// ordinary kanji and kana, and not for what folding changes.
    func testCharactersFoldedAlreadyFoldToThemselves() {
        var already: [String] = []
        for value in UInt32(0x80)...0x3_FFFF {
            guard let scalar = Unicode.Scalar(value), TextFolding.isFoldedAlready(scalar) else { continue }
            already.append(String(scalar))
        }
        XCTAssertGreaterThan(already.count, 90_000)
        for start in stride(from: 0, to: already.count, by: 4096) {
            let chunk = Array(already[start..<min(start + 4096, already.count)])
            let folded = TextFolding.foldedLines(chunk.joined(separator: "\n"))
            XCTAssertEqual(folded.count, chunk.count)
            for (character, key) in zip(chunk, folded) where character != key {
                XCTFail("U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16)) folds to \(key.debugDescription)")
            }
        }
        for character in ["漢", "字", "あ", "カ", "ー", "。"] {
            XCTAssertTrue(TextFolding.isFoldedAlready(character.unicodeScalars.first ?? " "), character)
        }
        for character in ["ｱ", "ガ", "Ａ", "𝐚", "ⓐ", "É", "\u{0430}", "\u{200B}", "\u{0301}"] {
            XCTAssertFalse(TextFolding.isFoldedAlready(character.unicodeScalars.first ?? " "), character)
        }
    }

    func testContainsNGWordIsTheMatcherOthersCall() {
        let filters = ChatFilters(ngWords: ["アホ", "aho"])
        XCTAssertTrue(filters.containsNGWord("ｱﾎ太郎"))
        XCTAssertTrue(filters.containsNGWord("ⓐⓗⓞ"))
        XCTAssertFalse(filters.containsNGWord("アポロ"))
        XCTAssertFalse(ChatFilters.none.containsNGWord("アホ"))
        XCTAssertEqual(filters.maskingNGWords(in: "ｱﾎ太郎"), "＊＊太郎")
    }
}

/// Issue 28: a viewer named with an NG word, or a gift named with one, is masked on the bar and
/// in the row speech is handed (the row as the bar shows it), or the row hidden in hide mode.
final class NGWordNameTests: XCTestCase {
    private func state(_ mode: NGMode) -> BarState {
        var state = BarState()
        state.filters = ChatFilters(ngWords: ["アホ", "badword"], ngMode: mode)
        return state
    }

    /// What speech reads of a row: its text, its writer's name and its gift's name
    /// (`ReadingRules.sentence(for:)` in CommentBarSpeech reads exactly these of the shown row).
    private func spoken(_ line: ChatLine) -> [String] {
        [line.text, line.user] + (line.kind.giftName.map { [$0] } ?? [])
    }

    func testAnNGDisplayNameIsMasked() throws {
        var bar = state(.mask)
        bar.apply(.comment(ChatLine(id: "1", user: "ｱﾎ太郎", text: "こんにちは")))
        bar.apply(.comment(ChatLine(id: "2", user: "𝐛𝐚𝐝𝐰𝐨𝐫𝐝", login: "someone", text: "hi")))
        XCTAssertEqual(bar.lines.map(\.user), ["＊＊太郎", "＊＊＊＊＊＊＊"])
        XCTAssertEqual(bar.lines.map(\.text), ["こんにちは", "hi"])
        for line in bar.lines {
            XCTAssertFalse(spoken(line).contains { bar.filters.containsNGWord($0) }, "\(line)")
        }
    }

    func testAMaskedNameKeepsItsWriter() {
        var bar = state(.mask)
        bar.apply(.comment(ChatLine(id: "1", user: "ｱﾎ太郎", text: "one")))
        bar.apply(.comment(ChatLine(id: "2", user: "friend", text: "two")))
        XCTAssertEqual(bar.lines.first?.login, "ｱﾎ太郎")
        // A timeout by the name the platform knows still removes the row.
        bar.apply(.deleteUser(user: "ｱﾎ太郎"))
        XCTAssertEqual(bar.lines.map(\.text), ["two"])
    }

    func testAnNGDisplayNameHidesTheRowInHideMode() {
        var bar = state(.hide)
        bar.apply(.comment(ChatLine(id: "1", user: "ｱﾎ太郎", text: "こんにちは")))
        bar.apply(.comment(ChatLine(id: "2", user: "b\u{0430}dword", text: "hi")))
        bar.apply(.comment(ChatLine(id: "3", user: "friend", text: "hello")))
        XCTAssertEqual(bar.lines.map(\.id), ["3"])
    }

    func testAnNGGiftNameIsMaskedOrHidesTheRow() throws {
        var masked = state(.mask)
        masked.apply(.gift(ChatLine(id: "1", user: "payer", text: "", kind: .gift(name: "ｱﾎのスタンプ", count: 3))))
        let row = try XCTUnwrap(masked.lines.first)
        XCTAssertEqual(row.kind, .gift(name: "＊＊のスタンプ", count: 3))
        XCTAssertEqual(masked.giftsTotal, 3, "the gift still counts")
        XCTAssertFalse(spoken(row).contains { masked.filters.containsNGWord($0) })

        var hidden = state(.hide)
        hidden.apply(.gift(ChatLine(id: "1", user: "payer", text: "", kind: .gift(name: "ⓑⓐⓓⓦⓞⓡⓓ", count: 1))))
        hidden.apply(.gift(ChatLine(id: "2", user: "payer", text: "", kind: .gift(name: "Rose", count: 1))))
        XCTAssertEqual(hidden.lines.map(\.id), ["2"])
    }

    /// Every disguise of the issue, in a row's text, through the bar as it applies rows: what is
    /// shown, and so what speech is handed, holds no NG word and no unmasked letter of one.
    func testEveryDisguiseIsMaskedInTheShownRow() {
        var bar = BarState()
        bar.filters = ChatFilters(ngWords: ["アホ", "バカ", "aho"])
        let disguises = ["ｱﾎ", "ﾊﾞｶ", "ＡＨＯ", "𝐚𝐡𝐨", "ⓐⓗⓞ", "\u{0430}h\u{043E}", "a\u{0301}ho"]
        for (index, disguise) in disguises.enumerated() {
            bar.apply(.comment(ChatLine(id: "\(index)", user: "u\(index)", text: "x \(disguise) y")))
        }
        XCTAssertEqual(bar.lines.count, disguises.count)
        for (line, disguise) in zip(bar.lines, disguises) {
            XCTAssertEqual(line.text, "x " + String(repeating: "＊", count: disguise.count) + " y", disguise)
            XCTAssertFalse(spoken(line).contains { bar.filters.containsNGWord($0) }, disguise)
        }
    }
}
