// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarSpeech
import XCTest

/// Open JTalk 1.11's `text2mecab`, byte by byte as its C does, to measure what the engine makes
/// of a sentence (its buffer is `char buff[1024]`): printable ASCII becomes 3 bytes, ASCII
/// controls vanish, a UTF-8 lead byte copies its sequence, a stray byte is skipped.
func openJTalkExpandedBytes(_ text: String) -> Int {
    let bytes = Array(text.utf8)
    var index = 0, size = 0
    while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case 0x20...0x7E: size += 3; index += 1
        case 0x00...0x7F: index += 1
        case 0xC0...0xDF: size += 2; index += 2
        case 0xE0...0xEF: size += 3; index += 3
        case 0xF0...0xF7: size += 4; index += 4
        default: index += 1
        }
    }
    return size
}

final class SpeechInputBoundTests: XCTestCase {
    /// The review's comment: "あ" and then "!" with 8 combining marks, as many as fit in the default
    /// 80 characters. Unbounded it expands past Open JTalk's 1,024-byte buffer (stack smashing).
    static let overflowingComment = "あ" + String(repeating: "!" + String(repeating: "\u{0301}", count: 8), count: 79)

    func testTheOverflowingCommentReachesOpenJTalkBounded() {
        let row = ChatLine(id: "1", user: "viewer", text: Self.overflowingComment)
        let sentence = ReadingRules(readNames: true, maxCharacters: 80).sentence(for: row) ?? ""
        XCTAssertGreaterThan(openJTalkExpandedBytes(sentence), 1024, "the attack as written would overflow")
        let handed = SpeechInputBound.openJTalk.bounded(sentence)
        XCTAssertLessThan(openJTalkExpandedBytes(handed), 1000)
        XCTAssertEqual(openJTalkExpandedBytes(handed), SpeechInputBound.openJTalk.size(of: handed))
        XCTAssertTrue(handed.hasPrefix("viewer"), handed)
    }

    func testCombiningMarksBeyondTwoPerBaseAreDropped() {
        let text = "a\u{0301}\u{0302}\u{0303}\u{0304}b\u{0308}c"
        let bounded = SpeechInputBound.plain.bounded(text)
        XCTAssertEqual(Array(bounded.unicodeScalars), Array("a\u{0301}\u{0302}b\u{0308}c".unicodeScalars))
        // Kana with a voiced mark written apart keeps it.
        XCTAssertEqual(SpeechInputBound.plain.bounded("か\u{3099}"), "か\u{3099}")
    }

    func testTheCutIsAtACharacterBoundaryAndControlsAreDropped() {
        let text = String(repeating: "abc ", count: 400) + "\n\u{0}end"
        let bounded = SpeechInputBound.openJTalk.bounded(text)
        XCTAssertLessThanOrEqual(SpeechInputBound.openJTalk.size(of: bounded), 900)
        XCTAssertEqual(bounded.count, 300, "300 printable ASCII characters are 900 bytes once full-width")
        XCTAssertFalse(SpeechInputBound.plain.bounded("a\nb\u{0}c\u{85}d").unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x85 })
        let emoji = String(repeating: "👨‍👩‍👧", count: 1000)
        let cut = SpeechInputBound.plain.bounded(emoji)
        XCTAssertLessThanOrEqual(cut.utf8.count, 4096)
        XCTAssertTrue(cut.allSatisfy { $0 == "👨‍👩‍👧" }, "no family cut in half")
    }

    func testEveryEngineSaysItsBound() {
        XCTAssertEqual(OpenJTalkEngine().inputBound, .openJTalk)
        XCTAssertEqual(ESpeakEngine().inputBound, .plain)
        XCTAssertEqual(VoicevoxEngine(server: "").inputBound, .plain)
        XCTAssertEqual(BouyomiChanEngine(server: "").inputBound, .plain)
    }
}
