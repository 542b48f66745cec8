// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import Testing

@Suite struct NicknameTests {
    @Test(arguments: [
        ("よろしく@たろう", "たろう"),
        ("よろしく＠たろう", "たろう"),
        ("初見です ＠タロウ", "タロウ"),
        ("@たろう", "たろう"),
        ("hi@taro", "taro"),
        ("こんにちは@taro  ", "taro"),
        ("@" + String(repeating: "あ", count: 16), String(repeating: "あ", count: 16)),
        // Direction marks go (a name must not reorder the row around it); the rest is kept.
        ("hi@\u{200F}たろう", "たろう"),
        ("hi@たろう\u{061C}", "たろう"),
        ("hi@ta\u{200E}ro", "taro"),
    ])
    func aTrailingNameSetsTheNickname(text: String, nickname: String) {
        #expect(ChatNickname.find(in: text) == nickname)
    }

    @Test(arguments: [
        "gg @streamer",         // a mention
        "@streamer",            // a mention on its own
        "hello",                // no @
        "ends with @",          // nothing after it
        "@" + String(repeating: "あ", count: 17),  // too long
        "a @b c",               // a space inside the name
        "hi@\u{200B}",          // a zero-width space alone: a blank name on air
        "hi@\u{3164}\u{3164}",  // two Hangul fillers
        "hi@\u{115F}\u{FFA0}",  // other fillers
        "hi@\u{2800}",          // the blank Braille pattern
        "hi@\u{0301}\u{0301}",  // marks leaning on nothing
        "hi@\u{202E}\u{2067}",  // bidi controls, dropped: nothing left
    ])
    func otherTextSetsNone(text: String) {
        #expect(ChatNickname.find(in: text) == nil)
    }

    /// The limit is 16 Unicode scalars, not 16 graphemes: a grapheme can carry hundreds.
    @Test func theLimitCountsScalars() {
        let stacked = String(repeating: "e\u{0301}\u{0302}", count: 6)  // 6 graphemes, 18 scalars
        #expect(ChatNickname.find(in: "hi@" + stacked) == nil)
        let fits = String(repeating: "e\u{0301}", count: 8)  // 8 graphemes, 16 scalars
        #expect(ChatNickname.find(in: "hi@" + fits) == fits)
    }

    /// The streamer's own choices are sanitized the same way, and refused when nothing is left.
    @Test func aStreamersChoiceIsSanitizedOrRefused() throws {
        #expect(try ChatNickname.change(.set("\u{200F}Boss ")) == .set("Boss"))
        #expect(throws: ChatMemoryError.self) { try ChatNickname.change(.set("\u{200B}")) }
        #expect(throws: ChatMemoryError.self) { try ChatNickname.change(.set(String(repeating: "x", count: 17))) }
        #expect(try ChatNickname.change(.clear) == .clear)
    }
}
