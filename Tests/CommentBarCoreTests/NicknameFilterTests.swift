// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import XCTest

/// A nickname from the viewer memory goes where the row goes (the bar, the overlay, speech, the
/// event API all take the row as the filters leave it): the NG words as they are now apply to it.
final class NicknameFilterTests: XCTestCase {
    private func row(nickname: String?) -> ChatLine {
        var line = ChatLine(id: "1", user: "Viewer", login: "viewer", text: "hello there")
        line.nickname = nickname
        return line
    }

    func testAnNGWordInANicknameIsMaskedAsInTheText() throws {
        let filters = ChatFilters(hideCommands: false, ngWords: ["scam"])
        let masked = try XCTUnwrap(filters.apply(row(nickname: "ＳＣＡＭking"), isFirstMessage: false))
        XCTAssertEqual(masked.nickname, "＊＊＊＊king")
        XCTAssertEqual(masked.shownName, "＊＊＊＊king", "the name the bar draws and speech reads")
        XCTAssertEqual(masked.text, "hello there")
        // The control: a fair nickname is left as it is.
        XCTAssertEqual(filters.apply(row(nickname: "たろう"), isFirstMessage: false)?.nickname, "たろう")
    }

    func testWithNGWordsSetToHideARowUnderSuchANicknameIsHidden() {
        let filters = ChatFilters(hideCommands: false, ngWords: ["scam"], ngMode: .hide)
        XCTAssertNil(filters.apply(row(nickname: "scam-bot"), isFirstMessage: false))
        XCTAssertNotNil(filters.apply(row(nickname: "friend"), isFirstMessage: false))
    }

    func testNameKeysFoldAsTheNGWordsDo() {
        let key = ChatFilters.nameKey("TheStreamer")
        XCTAssertEqual(ChatFilters.nameKey("ＴｈｅＳｔｒｅａｍｅｒ"), key, "full width")
        XCTAssertEqual(ChatFilters.nameKey("The Streamer"), key, "spaces")
        XCTAssertEqual(ChatFilters.nameKey("Тhе\u{200B}Strеаmеr"), key, "Cyrillic look-alikes and a zero-width space")
        XCTAssertNotEqual(ChatFilters.nameKey("TheStreamer2"), key)
        XCTAssertEqual(ChatFilters.nameKey("Alice"), ChatFilters.nameKey("alice"))
    }
}
