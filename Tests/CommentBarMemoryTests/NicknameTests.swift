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
    ])
    func otherTextSetsNone(text: String) {
        #expect(ChatNickname.find(in: text) == nil)
    }
}
