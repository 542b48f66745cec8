// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest

/// `trimmingWhitespace` stands in for Foundation's trimmingCharacters (the renderer links
/// FoundationEssentials only): the same sets, .whitespaces and .whitespacesAndNewlines.
final class TrimmingTests: XCTestCase {
    func testWhitespacesOnly() {
        XCTAssertEqual(" \t\u{3000}Noto Sans CJK JP\u{a0} ".trimmingWhitespace(), "Noto Sans CJK JP")
        XCTAssertEqual("\nline\n".trimmingWhitespace(), "\nline\n", "newlines are not whitespace here")
        XCTAssertEqual("   ".trimmingWhitespace(), "")
        XCTAssertEqual("".trimmingWhitespace(), "")
        XCTAssertEqual("a b".trimmingWhitespace(), "a b")
    }

    func testWhitespacesAndNewlines() {
        XCTAssertEqual("\r\n\u{85}\u{2028} {\"type\":\"clear\"} \u{0b}\u{0c}\n".trimmingWhitespace(andNewlines: true),
                       "{\"type\":\"clear\"}")
        XCTAssertEqual("\n\n".trimmingWhitespace(andNewlines: true), "")
    }
}
