// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
@testable import MirrativPlatform
import CommentBarNetTesting
import XCTest

final class MirrativTests: XCTestCase {
    func testLiveAndUserURLs() throws {
        XCTAssertEqual(try MirrativStreamID.parse("https://www.mirrativ.com/live/aB3xYz9QwErTyU"), .live("aB3xYz9QwErTyU"))
        XCTAssertEqual(try MirrativStreamID.parse("mirrativ.com/live/abc?from=share"), .live("abc"))
        XCTAssertEqual(try MirrativStreamID.parse("https://www.mirrativ.com/user/1234567"), .user("1234567"))
        XCTAssertEqual(try MirrativStreamID.parse("aB3xYz9QwErTyU"), .live("aB3xYz9QwErTyU"))
        for bad in ["", "https://www.mirrativ.com/", "https://www.mirrativ.com/user/abc", "a b", "../x",
                    "https://www.mirrativ.com/settings"] {
            XCTAssertThrowsError(try MirrativStreamID.parse(bad), bad)
        }
    }

    func testSessionFromTheSettingTheEnvironmentOrNowhere() throws {
        let fromSetting = try MirrativSession.find(in: FeedRequest(streamID: "x", credentials: ["mirrativ_session": " abc123 "], web: EmbeddedWeb()),
                                                   environment: [:])
        XCTAssertEqual(fromSetting?.cookie, "mr_id=abc123")
        XCTAssertEqual(try MirrativSession.parse("Cookie: mr_id=a; f=b")?.cookie, "mr_id=a; f=b")
        let fromEnvironment = try MirrativSession.find(in: FeedRequest(streamID: "x", web: EmbeddedWeb()),
                                                       environment: ["COMMENTBAR_MIRRATIV_SESSION": "zzz"])
        XCTAssertEqual(fromEnvironment?.cookie, "mr_id=zzz")
        XCTAssertNil(try MirrativSession.find(in: FeedRequest(streamID: "x", web: EmbeddedWeb()), environment: [:]))
        XCTAssertThrowsError(try MirrativSession.parse("a\r\nb"))
        XCTAssertThrowsError(try MirrativSession.parse("ｍｒ"))
        XCTAssertThrowsError(try MirrativSession.find(in: FeedRequest(streamID: "x", web: EmbeddedWeb()),
                                                      environment: ["COMMENTBAR_MIRRATIV_SESSION_FILE": "/nonexistent"]))
    }

    func testTheSessionIsNeverDescribed() throws {
        let session = try XCTUnwrap(try MirrativSession.parse("topsecret"))
        XCTAssertFalse("\(session)".contains("topsecret"))
        XCTAssertFalse(String(reflecting: session).contains("topsecret"))
    }

    func testAServerSettingIsRefusedSoTheSessionGoesNowhereElse() {
        XCTAssertThrowsError(try MirrativService.description.makeFeed(FeedRequest(streamID: "abc", server: "https://example.org", web: EmbeddedWeb())))
    }

    func testChatLines() throws {
        var mapper = MirrativChatMapper()
        let comment = try XCTUnwrap(try MirrativPayload.parse(line: "MSG\tk\t{\"ac\":\"A\",\"cm\":\"やあ\",\"u\":12,\"t\":\"1\"}"))
        guard case .comment(let line) = mapper.map(comment) else { return XCTFail("no comment") }
        XCTAssertEqual(line.user, "A")
        XCTAssertEqual(line.login, "12")
        XCTAssertEqual(line.text, "やあ")
        let gift = try XCTUnwrap(try MirrativPayload.parse(line: "MSG\tk\t{\"ac\":\"B\",\"gift_title\":\"ハート\",\"count\":\"3\",\"t\":35}"))
        guard case .gift(let row) = mapper.map(gift) else { return XCTFail("no gift") }
        XCTAssertEqual(row.kind, .gift(name: "ハート", count: 3))
        let join = try XCTUnwrap(try MirrativPayload.parse(line: "MSG\tk\t{\"ac\":\"C\",\"t\":3}"))
        XCTAssertNil(mapper.map(join))
        XCTAssertNil(try MirrativPayload.parse(line: "ACK"))
        XCTAssertThrowsError(try MirrativPayload.parse(line: "MSG\tk\t[1]"))
        XCTAssertThrowsError(try MirrativPayload.parse(line: "MSG\tk"))
    }

    func testLiveAnswerAndNotLoggedIn() throws {
        let live = try JSONDecoder().decode(MirrativAPI.Live.self, from: Data(
            #"{"live_id":"x","is_live":true,"bcsvr_key":"","broadcast_key":"k:1","online_user_num":"9","started_at":5,"status":{"ok":1,"error_code":0}}"#.utf8))
        XCTAssertEqual(live.chatKey, "k:1")
        XCTAssertEqual(live.onlineUserNum?.value, 9)
        XCTAssertEqual(live.status?.needsLogin, false)
        let refused = try JSONDecoder().decode(MirrativAPI.Live.self, from: Data(#"{"status":{"ok":0,"error_code":401}}"#.utf8))
        XCTAssertEqual(refused.status?.needsLogin, true)
    }
}
