// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import IRCPlatform

final class IRCMessageTests: XCTestCase {
    func testFullLineWithTagsSourceParamsAndTrailing() throws {
        let message = try IRCMessage.parse("@id=abc;color=#FF0000;flag :nick!user@host PRIVMSG #chan :hello there world\r\n")
        XCTAssertEqual(message.tags, ["id": "abc", "color": "#FF0000", "flag": ""])
        XCTAssertEqual(message.source, "nick!user@host")
        XCTAssertEqual(message.sourceNick, "nick")
        XCTAssertEqual(message.command, "PRIVMSG")
        XCTAssertEqual(message.params, ["#chan", "hello there world"])
    }

    func testNoTagsNoSourceAndLowercaseCommand() throws {
        let message = try IRCMessage.parse("ping :tmi.twitch.tv")
        XCTAssertEqual(message, IRCMessage(command: "PING", params: ["tmi.twitch.tv"]))
    }

    func testMiddleParamsExtraSpacesAndEmptyTrailing() throws {
        let message = try IRCMessage.parse(":server  CAP   *  LS  :")
        XCTAssertEqual(message.params, ["*", "LS", ""])
        let numeric = try IRCMessage.parse(":irc.example 001 guest1234 :Welcome")
        XCTAssertEqual(numeric.command, "001")
        XCTAssertEqual(numeric.params, ["guest1234", "Welcome"])
    }

    func testTrailingKeepsColonsAndSpaces() throws {
        let message = try IRCMessage.parse(":a!b@c PRIVMSG #x ::) two  spaces ")
        XCTAssertEqual(message.params, ["#x", ":) two  spaces "])
    }

    func testTagEscapes() throws {
        let message = try IRCMessage.parse(#"@a=semi\:colon;b=space\sx;c=back\\slash;d=cr\rlf\n;e=unknown\q;f=trail\ :s CMD"#)
        XCTAssertEqual(message.tags["a"], "semi;colon")
        XCTAssertEqual(message.tags["b"], "space x")
        XCTAssertEqual(message.tags["c"], #"back\slash"#)
        XCTAssertEqual(message.tags["d"], "cr\rlf\n")
        XCTAssertEqual(message.tags["e"], "unknownq")
        XCTAssertEqual(message.tags["f"], "trail")
    }

    func testDuplicateAndEmptyTagKeys() throws {
        let message = try IRCMessage.parse("@=x;;k=1;k=2 PING")
        XCTAssertEqual(message.tags, ["k": "2"])
    }

    func testSourceNickWithoutUserOrHost() throws {
        XCTAssertEqual(try IRCMessage.parse(":justnick PRIVMSG #a :b").sourceNick, "justnick")
        XCTAssertEqual(try IRCMessage.parse(":nick@host PRIVMSG #a :b").sourceNick, "nick")
        XCTAssertNil(try IRCMessage.parse(":!user@host PRIVMSG #a :b").sourceNick)
    }

    func testHostileLinesAreErrorsNotCrashes() {
        for line in ["", "   ", "\r\n", "@a=b", "@a=b ", ":source", ":source   ", "@a=b :src", "12 x", "1234 x",
                     "PRIV-MSG #a :b", "\u{0}\u{0}", ":src \u{0}CMD"] {
            XCTAssertThrowsError(try IRCMessage.parse(line), "line \(line.debugDescription)")
        }
    }

    func testTooManyParamsIsAnError() {
        let line = "CMD " + Array(repeating: "p", count: 100).joined(separator: " ")
        XCTAssertThrowsError(try IRCMessage.parse(line))
    }

    func testNULAndInvalidUTF8InTextAreKept() throws {
        let bytes: [UInt8] = Array(":n!u@h PRIVMSG #c :a".utf8) + [0x00, 0xFF, 0xFE] + Array("b".utf8)
        let message = try IRCMessage.parse(String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(message.params.last, "a\u{0}\u{FFFD}\u{FFFD}b")
    }

    func testHugeLineParses() throws {
        let text = String(repeating: "あ", count: 20_000)
        let message = try IRCMessage.parse("@id=\(String(repeating: "x", count: 10_000)) :n PRIVMSG #c :\(text)")
        XCTAssertEqual(message.params.last?.count, 20_000)
    }

    func testCombiningMarkAfterSpaceStillSplits() throws {
        let message = try IRCMessage.parse("CMD a \u{301}b")
        XCTAssertEqual(message.params, ["a", "\u{301}b"])
    }

    func testJapaneseTrailing() throws {
        XCTAssertEqual(try IRCMessage.parse(":n PRIVMSG #c :こんにちは 世界").params.last, "こんにちは 世界")
    }
}
