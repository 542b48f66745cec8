// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import IRCPlatform

/// Twitch's `emotes` tag → emotes on the row, and the `room-id` reader.
final class EmoteTagTests: XCTestCase {
    private func line(_ raw: String) throws -> ChatLine? {
        var session = IRCSession(flavor: .twitch, channel: "#chan", nick: "me")
        for action in session.handle(try IRCMessage.parse(raw)) {
            if case .emit(.comment(let line)) = action { return line }
            if case .emit(.gift(let line)) = action { return line }
        }
        return nil
    }

    private func url(_ id: String) -> String { "https://static-cdn.jtvnw.net/emoticons/v2/\(id)/default/dark/2.0" }

    func testEveryOccurrenceOfEveryEmote() throws {
        let row = try XCTUnwrap(line("@emotes=25:0-4,12-16/1902:6-10;id=a :u!u@h PRIVMSG #chan :Kappa Keepo Kappa"))
        XCTAssertEqual(row.emotes, [
            Emote(range: 0..<5, name: "Kappa", url: url("25")),
            Emote(range: 6..<11, name: "Keepo", url: url("1902")),
            Emote(range: 12..<17, name: "Kappa", url: url("25")),
        ])
    }

    func testOffsetsAreScalarsAndV2IdsWork() throws {
        // 😀 is one code point (two UTF-16 units): Twitch counts code points, as Emote does.
        let row = try XCTUnwrap(line("@emotes=emotesv2_4c3b4ed516de493bbcd2df2f5d450f49:3-8 :u!u@h PRIVMSG #chan :😀 ＨEmote"))
        XCTAssertEqual(row.emotes, [], "3-8 runs past the 8-scalar text: skipped")
        let fits = try XCTUnwrap(line("@emotes=emotesv2_4c3b4ed516de493bbcd2df2f5d450f49:2-7 :u!u@h PRIVMSG #chan :😀 ＨEmote"))
        XCTAssertEqual(fits.emotes, [Emote(range: 2..<8, name: "ＨEmote", url: url("emotesv2_4c3b4ed516de493bbcd2df2f5d450f49"))])
    }

    func testBadTagsAreSkippedSilently() throws {
        for tag in ["25:4-0", "25:0-99", "25:x-4", "25:0-4-5", ":0-4", "a.b:0-4", "ä:0-4", "25%2F:0-4", "25:-1-4", "25:",
                    "25:0-99999999999999999999", "25", "/", "25:0-4,"] {
            let row = try XCTUnwrap(line("@emotes=\(tag) :u!u@h PRIVMSG #chan :Kappa"), tag)
            let expected = tag == "25:0-4," ? [Emote(range: 0..<5, name: "Kappa", url: url("25"))] : []
            XCTAssertEqual(row.emotes, expected, tag)
            XCTAssertEqual(row.text, "Kappa")
        }
        // One bad entry does not spoil the good ones.
        let mixed = try XCTUnwrap(line("@emotes=bad-id:0-4/25:6-10,99-100 :u!u@h PRIVMSG #chan :Kappa Kappa"))
        XCTAssertEqual(mixed.emotes, [Emote(range: 6..<11, name: "Kappa", url: url("25"))])
    }

    func testActionCheerAndNoticeRows() throws {
        let action = try XCTUnwrap(line("@emotes=25:6-10 :u!u@h PRIVMSG #chan :\u{1}ACTION waves Kappa\u{1}"))
        XCTAssertEqual(action.kind, .action)
        XCTAssertEqual(action.emotes, [Emote(range: 6..<11, name: "Kappa", url: url("25"))])

        let cheer = try XCTUnwrap(line("@bits=100;emotes=25:9-13 :u!u@h PRIVMSG #chan :Cheer100 Kappa"))
        XCTAssertEqual(cheer.kind, .gift(name: "Bits", count: 100))
        XCTAssertEqual(cheer.emotes, [Emote(range: 9..<14, name: "Kappa", url: url("25"))])

        // A resub: the row is "system — message"; the tag counts in the message.
        let resub = try XCTUnwrap(line(#"@msg-id=resub;login=fan;system-msg=fan\ssubscribed\sfor\s3\smonths!;emotes=25:4-8 :tmi.twitch.tv USERNOTICE #chan :hey Kappa"#))
        XCTAssertEqual(resub.text, "fan subscribed for 3 months! — hey Kappa")
        let start = "fan subscribed for 3 months! — hey ".unicodeScalars.count
        XCTAssertEqual(resub.emotes, [Emote(range: start..<(start + 5), name: "Kappa", url: url("25"))])
        // Without a user message there is nothing to place.
        let plain = try XCTUnwrap(line(#"@msg-id=sub;login=fan;system-msg=fan\ssubscribed!;emotes=25:0-4 :tmi.twitch.tv USERNOTICE #chan"#))
        XCTAssertEqual(plain.emotes, [])
    }

    func testRoomID() {
        XCTAssertEqual(TwitchTags.roomID("12826"), "12826")
        for bad in [nil, "", "12a", "../1", "-1", String(repeating: "9", count: 21), "１２"] {
            XCTAssertNil(TwitchTags.roomID(bad), String(describing: bad))
        }
    }
}
