// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Synchronization
import XCTest
@testable import NiconicoPlatform

/// The watch page, served by the in-process web: the programme's state, and what failures show.
final class NiconicoWebTests: XCTestCase {
    static let watchURL = "https://live.nicovideo.jp/watch/lv1"

    /// The feed's first status after `answer` (at most 10 s).
    private func firstStatus(_ answer: EmbeddedWeb.Answer, server: String = "") async throws -> (FeedStatus?, EmbeddedWeb) {
        let web = EmbeddedWeb()
        web.answer(startingWith: "https://", with: answer)
        let feed = try NiconicoService.description.makeFeed(FeedRequest(streamID: "lv1", server: server, web: web))
        let statuses = Mutex<[FeedStatus]>([])
        let task = Task {
            await feed.run { event in
                if case .status(let status) = event, status != .connecting { statuses.withLock { $0.append(status) } }
            }
        }
        for _ in 0..<500 where statuses.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        return (statuses.withLock { $0.first }, web)
    }

    func testTheProgrammesStateFromItsPage() async throws {
        let (before, web) = try await firstStatus(.ok(WatchPageTests.page(status: "BEFORE_RELEASE")))
        XCTAssertEqual(before, .waiting(reason: NiconicoFeed.notStarted))
        let request = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(request.url, Self.watchURL)
        XCTAssertEqual(request.accept, "text/html")
        XCTAssertEqual(request.limits, NiconicoFeed.pageLimits)
        XCTAssertNil(request.streamerServer)
        let (ended, _) = try await firstStatus(.ok(WatchPageTests.page(status: "ENDED")))
        XCTAssertEqual(ended, .ended(reason: NiconicoFeed.ended))
        let (membersOnly, _) = try await firstStatus(.ok(WatchPageTests.page(webSocketURL: "")))
        XCTAssertEqual(membersOnly, .error(message: NiconicoFeed.cannotWatch))
    }

    /// On air, the programme's broadcaster is named before the seat is opened and anything is shown.
    func testAnOnAirPageNamesItsBroadcaster() async throws {
        let web = EmbeddedWeb()
        web.answer(startingWith: "https://", with: .ok(WatchPageTests.page()))
        let feed = try NiconicoService.description.makeFeed(FeedRequest(streamID: "lv1", web: web))
        let events = Mutex<[FeedEvent]>([])
        let task = Task { await feed.run { event in events.withLock { $0.append(event) } } }
        for _ in 0..<500 where !events.withLock({ $0.contains(.start(time: 1_700_000_000)) }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        task.cancel()
        await task.value
        let seen = events.withLock { $0 }
        XCTAssertEqual(Array(seen.prefix(3)), [.status(.connecting), .channel(id: "user/12345"), .start(time: 1_700_000_000)])
    }

    func testMissingSlowDownBrokenAndTypedServer() async throws {
        let (missing, _) = try await firstStatus(.status(404))
        XCTAssertEqual(missing, .error(message: NiconicoFeed.notFound))
        guard case .reconnecting(let slowDown)? = try await firstStatus(.status(429)).0 else { return XCTFail("429") }
        XCTAssertTrue(slowDown.hasPrefix("the site asks to slow down (HTTP 429); retrying in "), slowDown)
        guard case .reconnecting(let late)? = try await firstStatus(.timesOut).0 else { return XCTFail("timeout") }
        XCTAssertTrue(late.hasPrefix("\(Self.watchURL): timed out; retrying in "), late)
        guard case .error(let junk)? = try await firstStatus(.text("<html></html>")).0 else { return XCTFail("junk") }
        XCTAssertFalse(junk.isEmpty)
        let (_, relay) = try await firstStatus(.status(404), server: "https://relay.example:8443/nico/")
        XCTAssertEqual(relay.requests.first?.url, "https://relay.example:8443/nico/watch/lv1")
        XCTAssertEqual(relay.requests.first?.streamerServer, StreamerServer(host: "relay.example", port: 8443))
    }
}
