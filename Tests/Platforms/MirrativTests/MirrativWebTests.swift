// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Synchronization
import XCTest
@testable import MirrativPlatform

/// The live and profile APIs with the streamer's session, served by the in-process web: the
/// session goes as a Cookie to Mirrativ's own host, and no redirect is followed.
final class MirrativWebTests: XCTestCase {
    static let liveURL = "https://www.mirrativ.com/api/live/live?live_id=L1"
    static let profileURL = "https://www.mirrativ.com/api/user/profile?user_id=42"

    private func resolve(_ stream: MirrativStreamID, _ answers: [String: EmbeddedWeb.Answer]) async
        -> (ResolvedChatLoop.Resolution<MirrativChatFeed.Live>, [FeedEvent], EmbeddedWeb)
    {
        let web = EmbeddedWeb(answers)
        let session = MirrativSession(cookie: "mr_id=secret")
        let feed = MirrativChatFeed(stream: stream, session: session, web: web)
        let events = Mutex<[FeedEvent]>([])
        let resolution = await feed.resolve(session: session) { event in events.withLock { $0.append(event) } }
        return (resolution, events.withLock { $0 }, web)
    }

    func testALiveGivesItsChatKeyStartAndViewers() async throws {
        let (resolution, events, web) = await resolve(.live("L1"), [Self.liveURL: .text(
            #"{"live_id":"L1","is_live":true,"bcsvr_key":"K1","online_user_num":"5","started_at":1700000000,"owner":{"user_id":42,"name":"配信者"},"status":{"ok":1}}"#)])
        guard case .live(let live) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(live.key, "K1")
        // The streamer's id: every live of one user is one channel to the viewer memory.
        XCTAssertEqual(events, [.channel(id: "42"), .start(time: 1_700_000_000), .viewers(5)])
        let request = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(request.url, Self.liveURL)
        XCTAssertEqual(request.header("Cookie"), "mr_id=secret")
        XCTAssertEqual(request.limits.maxRedirects, 0, "the session never follows a redirect elsewhere")
    }

    func testAUserPageAsksTheProfileFirst() async throws {
        let (resolution, _, web) = await resolve(.user("42"), [
            Self.profileURL: .text(#"{"onlive":{"live_id":"L1"},"status":{"ok":1}}"#),
            Self.liveURL: .text(#"{"live_id":"L1","is_live":true,"broadcast_key":"K2"}"#),
        ])
        guard case .live(let live) = resolution else { return XCTFail("\(resolution)") }
        XCTAssertEqual(live.key, "K2")
        XCTAssertEqual(web.requests.map(\.url), [Self.profileURL, Self.liveURL])
        let (offline, _, _) = await resolve(.user("42"), [Self.profileURL: .text(#"{"onlive":null}"#)])
        guard case .notLive = offline else { return XCTFail("not live") }
    }

    func testARefusedSessionEndedLivesAndJunk() async throws {
        for answer in [EmbeddedWeb.Answer.status(401), .status(403), .text(#"{"status":{"ok":0,"error_code":401}}"#)] {
            guard case .failed(let message, let wait) = await resolve(.live("L1"), [Self.liveURL: answer]).0 else {
                return XCTFail("\(answer)")
            }
            XCTAssertTrue(message.hasPrefix(MirrativChatFeed.needsSession), message)
            XCTAssertEqual(wait, MirrativChatFeed.loginRecheck)
        }
        guard case .ended = await resolve(.live("L1"), [Self.liveURL: .text(#"{"is_live":false}"#)]).0 else {
            return XCTFail("ended")
        }
        guard case .failed(let junk, _) = await resolve(.live("L1"), [Self.liveURL: .text("<html>")]).0 else {
            return XCTFail("junk")
        }
        XCTAssertEqual(junk, "https://www.mirrativ.com/api/live/live: not the expected JSON")
        XCTAssertFalse(junk.contains("secret"))
    }
}
