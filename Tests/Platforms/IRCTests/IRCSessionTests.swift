// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import XCTest
@testable import IRCPlatform

final class IRCSessionTests: XCTestCase {
    private func handle(_ session: inout IRCSession, _ line: String) throws -> [IRCSession.Action] {
        session.handle(try IRCMessage.parse(line))
    }

    func testTwitchAnonymousLogin() throws {
        var session = IRCSession(flavor: .twitch, channel: "#chan")
        let opening = session.openingLines()
        XCTAssertEqual(opening.first, "CAP REQ :twitch.tv/tags twitch.tv/commands")
        XCTAssertTrue(opening.contains { $0.hasPrefix("NICK justinfan") && $0.dropFirst(14).allSatisfy(\.isNumber) })
        XCTAssertFalse(opening.contains { $0.hasPrefix("PASS oauth") })
        XCTAssertEqual(try handle(&session, ":tmi.twitch.tv CAP * ACK :twitch.tv/tags twitch.tv/commands"), [])
        XCTAssertEqual(try handle(&session, ":tmi.twitch.tv 001 \(session.nick) :Welcome, GLHF!"), [.send("JOIN #chan")])
        XCTAssertEqual(try handle(&session, ":\(session.nick)!\(session.nick)@x JOIN #chan"), [.live])
        XCTAssertTrue(session.isJoined)
        XCTAssertEqual(try handle(&session, "PING :tmi.twitch.tv"), [.send("PONG :tmi.twitch.tv")])
        XCTAssertEqual(try handle(&session, ":tmi.twitch.tv RECONNECT"), [.reconnectNow("the server asked to reconnect")])
    }

    func testTwitchLoginFailure() throws {
        var session = IRCSession(flavor: .twitch, channel: "#chan")
        guard case .fail? = try handle(&session, ":tmi.twitch.tv NOTICE * :Login authentication failed").first else {
            return XCTFail()
        }
    }

    func testIRCCapNegotiationRequestsOnlyOfferedWantedCaps() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        XCTAssertEqual(session.openingLines(), ["CAP LS 302", "NICK guest1", "USER guest1 0 * :CommentBar"])
        XCTAssertEqual(try handle(&session, ":srv CAP * LS * :multi-prefix sasl=PLAIN,EXTERNAL"), [])
        XCTAssertEqual(try handle(&session, ":srv CAP * LS :server-time message-tags=foo cap-notify"),
                       [.send("CAP REQ :message-tags server-time")])
        XCTAssertEqual(try handle(&session, ":srv CAP guest1 ACK :message-tags server-time"), [.send("CAP END")])
        XCTAssertEqual(try handle(&session, ":srv 001 guest1 :Welcome"), [.send("JOIN #chan")])
        XCTAssertEqual(try handle(&session, ":srv CAP guest1 NEW :server-time"), [])
    }

    func testIRCWithoutWantedCapsEndsNegotiation() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        XCTAssertEqual(try handle(&session, ":srv CAP * LS :multi-prefix"), [.send("CAP END")])
        var nak = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        _ = try handle(&nak, ":srv CAP * LS :server-time")
        XCTAssertEqual(try handle(&nak, ":srv CAP * NAK :server-time"), [.send("CAP END")])
    }

    func testNickInUsePicksAnotherThenGivesUp() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        let actions = try handle(&session, ":srv 433 * guest1 :Nickname is already in use")
        XCTAssertEqual(actions, [.send("NICK \(session.nick)")])
        XCTAssertTrue(session.nick.hasPrefix("guest"))
        var last: [IRCSession.Action] = []
        for _ in 0..<IRCSession.maxNickRetries { last = try handle(&session, ":srv 433 * x :in use") }
        guard case .fail? = last.first else { return XCTFail("\(last)") }
    }

    func testJoinConfirmationOnlyForOurNickAndChannel() throws {
        var session = IRCSession(flavor: .irc, channel: "#Chan", nick: "guest1")
        XCTAssertEqual(try handle(&session, ":other!o@h JOIN #chan"), [])
        XCTAssertEqual(try handle(&session, ":guest1!g@h JOIN #elsewhere"), [])
        XCTAssertEqual(try handle(&session, ":GUEST1!g@h JOIN :#chan"), [.live])
        XCTAssertEqual(try handle(&session, ":guest1!g@h JOIN #chan"), [])
    }

    func testEndOfNamesConfirmsJoinToo() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        XCTAssertEqual(try handle(&session, ":srv 366 guest1 #chan :End of /NAMES list."), [.live])
    }

    func testJoinRefusedFails() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        guard case .fail(let message)? = try handle(&session, ":srv 474 guest1 #chan :Cannot join channel (+b)").first else {
            return XCTFail()
        }
        XCTAssertTrue(message.contains("#chan"))
    }

    func testServerErrorDisconnects() throws {
        var session = IRCSession(flavor: .irc, channel: "#chan", nick: "guest1")
        guard case .disconnect? = try handle(&session, "ERROR :Closing link: (guest1@127.0.0.1) [Registration timeout]").first
        else { return XCTFail() }
    }
}
