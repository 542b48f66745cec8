// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import IRCPlatform

/// Twitch and IRC chat lines as the bar sees them, through the session that routes them.
final class ChatMappingTests: XCTestCase {
    private func events(_ lines: [String], flavor: IRCSession.Flavor = .twitch,
                        file: StaticString = #filePath, line: UInt = #line) throws -> [FeedEvent] {
        var session = IRCSession(flavor: flavor, channel: "#chan", nick: "me")
        return try lines.flatMap { text in
            try session.handle(IRCMessage.parse(text)).compactMap { action -> FeedEvent? in
                if case .emit(let event) = action { return event }
                return nil
            }
        }
    }

    private func event(_ line: String, flavor: IRCSession.Flavor = .twitch) throws -> FeedEvent? {
        try events([line], flavor: flavor).first
    }

    func testTwitchPrivmsgUsesDisplayNameColorBadgesAndId() throws {
        let line = #"@badge-info=subscriber/8;badges=broadcaster/1,subscriber/12;color=#1E90FF;display-name=Ronni\s;emotes=25:0-4;id=b34ccfc7;user-id=1337 :ronni!ronni@ronni.tmi.twitch.tv PRIVMSG #chan :Kappa Keepo"#
        XCTAssertEqual(try event(line), .comment(ChatLine(
            id: "b34ccfc7", user: "Ronni", login: "ronni", text: "Kappa Keepo",
            color: RGBColor(red: 0x1E, green: 0x90, blue: 0xFF), badges: ["broadcaster", "subscriber"],
            emotes: [Emote(range: 0..<5, name: "Kappa", url: "https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0")])))
    }

    func testDisplayNameFallsBackToLoginAndIdIsGenerated() throws {
        guard case .comment(let line)? = try event(":ronni!ronni@h PRIVMSG #chan :hi") else {
            return XCTFail("no comment")
        }
        XCTAssertEqual(line.user, "ronni")
        XCTAssertEqual(line.login, "ronni")
        XCTAssertFalse(line.id.isEmpty)
        XCTAssertNil(line.color)
    }

    /// Twitch's own "first message in this channel": the viewer memory's first-time badge.
    func testTwitchsFirstMessageTagIsKept() throws {
        guard case .comment(let first)? = try event("@first-msg=1;id=x1 :a!a@a PRIVMSG #chan :hi all") else { return XCTFail() }
        XCTAssertTrue(first.platformFirstMessage)
        guard case .comment(let later)? = try event("@first-msg=0;id=x2 :a!a@a PRIVMSG #chan :hi again") else { return XCTFail() }
        XCTAssertFalse(later.platformFirstMessage)
    }

    func testBadColorIsIgnored() throws {
        guard case .comment(let line)? = try event("@color=red :a!a@a PRIVMSG #chan :hi") else { return XCTFail() }
        XCTAssertNil(line.color)
    }

    func testCheerIsABitsGiftRow() throws {
        let line = "@bits=100;display-name=Cheery;id=c1 :cheery!cheery@h PRIVMSG #chan :Cheer100 great stream"
        XCTAssertEqual(try event(line), .gift(ChatLine(
            id: "c1", user: "Cheery", login: "cheery", text: "Cheer100 great stream", kind: .gift(name: "Bits", count: 100))))
        guard case .comment? = try event("@bits=0 :a!a@a PRIVMSG #chan :zero") else { return XCTFail("bits=0 is a comment") }
        guard case .comment? = try event("@bits=-5 :a!a@a PRIVMSG #chan :neg") else { return XCTFail("bits<0 is a comment") }
    }

    func testActionDropsCTCPBytes() throws {
        guard case .comment(let line)? = try event(":a!a@a PRIVMSG #chan :\u{1}ACTION waves hello\u{1}") else {
            return XCTFail()
        }
        XCTAssertEqual(line.kind, .action)
        XCTAssertEqual(line.text, "waves hello")
        // Unterminated ACTION still works; other CTCP is not chat.
        guard case .comment(let open)? = try event(":a!a@a PRIVMSG #chan :\u{1}ACTION dances") else { return XCTFail() }
        XCTAssertEqual(open.text, "dances")
        XCTAssertNil(try event(":a!a@a PRIVMSG #chan :\u{1}VERSION\u{1}"))
    }

    func testOtherTargetsAreIgnored() throws {
        XCTAssertNil(try event(":a!a@a PRIVMSG #other :hi"))
        XCTAssertNil(try event(":a!a@a PRIVMSG me :private"))
        XCTAssertNotNil(try event(":a!a@a PRIVMSG #CHAN :case-insensitive"))
    }

    func testMissingParamsAreMalformedNotEvents() throws {
        var session = IRCSession(flavor: .twitch, channel: "#chan", nick: "me")
        for text in ["PRIVMSG", "PRIVMSG #chan", ":a!a@a PRIVMSG", "PRIVMSG #chan :no source", "@msg-id= USERNOTICE #chan",
                     "CLEARMSG #chan :x"] {
            let actions = session.handle(try IRCMessage.parse(text))
            XCTAssertTrue(actions.allSatisfy { if case .malformed = $0 { true } else { false } }, text)
        }
    }

    func testSubResubRaidAndUnknownAreNotices() throws {
        let sub = #"@msg-id=sub;display-name=Subby;login=subby;id=n1;system-msg=Subby\ssubscribed\sat\sTier\s1. :tmi.twitch.tv USERNOTICE #chan"#
        XCTAssertEqual(try event(sub), .comment(ChatLine(id: "n1", user: "Subby", login: "subby",
                                                         text: "Subby subscribed at Tier 1.", kind: .notice)))
        let resub = #"@msg-id=resub;display-name=Re;login=re;id=n2;system-msg=Re\ssubscribed\sfor\s5\smonths! :tmi.twitch.tv USERNOTICE #chan :still here"#
        guard case .comment(let resubLine)? = try event(resub) else { return XCTFail() }
        XCTAssertEqual(resubLine.text, "Re subscribed for 5 months! — still here")
        let raid = #"@msg-id=raid;display-name=Raider;login=raider;id=n3;system-msg=15\sraiders\sfrom\sRaider\shave\sjoined! :tmi.twitch.tv USERNOTICE #chan"#
        guard case .comment(let raidLine)? = try event(raid) else { return XCTFail() }
        XCTAssertEqual(raidLine.kind, .notice)
        XCTAssertEqual(raidLine.text, "15 raiders from Raider have joined!")
        let other = #"@msg-id=bitsbadgetier;login=x;id=n4;system-msg=bits\sbadge\stier :tmi.twitch.tv USERNOTICE #chan"#
        guard case .comment(let otherLine)? = try event(other) else { return XCTFail() }
        XCTAssertEqual(otherLine.text, "bits badge tier")
    }

    func testSubGiftsAreGiftRowsAndBatchesAreOneRow() throws {
        let mystery = #"@msg-id=submysterygift;msg-param-mass-gift-count=5;display-name=Giver;login=giver;id=g1;system-msg=Giver\sis\sgifting\s5\ssubs! :tmi.twitch.tv USERNOTICE #chan"#
        XCTAssertEqual(try event(mystery), .gift(ChatLine(id: "g1", user: "Giver", login: "giver",
                                                          text: "Giver is gifting 5 subs!", kind: .gift(name: "Gift Sub", count: 5))))
        let inBatch = #"@msg-id=subgift;msg-param-community-gift-id=123;login=giver;id=g2;system-msg=x :tmi.twitch.tv USERNOTICE #chan"#
        XCTAssertNil(try event(inBatch))
        let single = #"@msg-id=subgift;display-name=Giver;login=giver;id=g3;system-msg=Giver\sgifted\sa\ssub\sto\sLucky! :tmi.twitch.tv USERNOTICE #chan"#
        XCTAssertEqual(try event(single), .gift(ChatLine(id: "g3", user: "Giver", login: "giver",
                                                         text: "Giver gifted a sub to Lucky!", kind: .gift(name: "Gift Sub", count: 1))))
    }

    func testClearmsgAndClearchat() throws {
        XCTAssertEqual(try event("@login=a;target-msg-id=abc :tmi.twitch.tv CLEARMSG #chan :bad words"), .delete(id: "abc"))
        XCTAssertEqual(try event("@ban-duration=10 :tmi.twitch.tv CLEARCHAT #chan :baduser"), .deleteUser(user: "baduser"))
        XCTAssertEqual(try event(":tmi.twitch.tv CLEARCHAT #chan"), .clear)
        XCTAssertNil(try event(":tmi.twitch.tv CLEARCHAT #other"))
    }

    func testPlainIRCUsesMsgidAndShowsUserNotices() throws {
        guard case .comment(let line)? = try event("@msgid=m1;time=2024-01-01T00:00:00.000Z :bob!b@h PRIVMSG #chan :hey",
                                                   flavor: .irc) else { return XCTFail() }
        XCTAssertEqual(line.id, "m1")
        XCTAssertEqual(line.user, "bob")
        guard case .comment(let notice)? = try event(":bob!b@h NOTICE #chan :note", flavor: .irc) else { return XCTFail() }
        XCTAssertEqual(notice.kind, .notice)
        XCTAssertNil(try event(":server.example NOTICE #chan :server notice", flavor: .irc))
        XCTAssertNil(try event(":bob!b@h NOTICE #chan :note", flavor: .twitch))
    }

    func testHostileTextIsSanitizedByChatLine() throws {
        let long = String(repeating: "x", count: 5000)
        guard case .comment(let line)? = try event(":a!a@a PRIVMSG #chan :\(long)\u{0}\u{7}") else { return XCTFail() }
        XCTAssertLessThanOrEqual(line.text.unicodeScalars.count, 501)
        XCTAssertFalse(line.text.unicodeScalars.contains { $0.value < 0x20 })
    }

    func testTwitchTagReaders() {
        XCTAssertEqual(TwitchTags.badges("moderator/1,,/3,vip/1"), ["moderator", "vip"])
        XCTAssertEqual(TwitchTags.badges(nil), [])
        XCTAssertEqual(TwitchTags.positiveCount("12"), 12)
        XCTAssertNil(TwitchTags.positiveCount("1e3"))
    }
}
