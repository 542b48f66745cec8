// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Foundation
import Synchronization
import XCTest
@testable import YouTubePlatform

/// The watch page, then `get_live_chat` polls, served by the in-process web: the requests as the
/// web client makes them, the chat read from a recorded answer, and what failures show.
final class YouTubeWebTests: XCTestCase {
    static let base = "https://www.youtube.com"
    static let watchURL = base + "/watch?v=abcdefghijk"
    static let page = #"<script>ytcfg.set({"INNERTUBE_API_KEY":"KEY_1","INNERTUBE_CONTEXT":{"client":{"clientName":"WEB","clientVersion":"2.2024","hl":"ja"}}});</script>"#
        + #"<script>var ytInitialPlayerResponse = {"playabilityStatus":{"status":"OK"},"videoDetails":{"videoId":"abcdefghijk","channelId":"UCabcdefghijklmnopqrstuv","isLive":true},"microformat":{"playerMicroformatRenderer":{"liveBroadcastDetails":{"isLiveNow":true,"startTimestamp":"2024-05-01T10:00:00+00:00"}}}};</script>"#
        + #"<script>var ytInitialData = {"contents":{"twoColumnWatchNextResults":{"conversationBar":{"liveChatRenderer":{"continuations":[{"reloadContinuationData":{"continuation":"ALL"}}]}}}}};</script>"#

    /// Runs the feed until `until` holds for its events (at most 10 s).
    private func run(_ web: EmbeddedWeb, server: String = "", until: @escaping ([FeedEvent]) -> Bool) async throws -> [FeedEvent] {
        let feed = try XCTUnwrap(YouTubeService.description.makeFeed(FeedRequest(streamID: "abcdefghijk", server: server, web: web)))
        let events = Mutex<[FeedEvent]>([])
        let task = Task { await feed.run { event in events.withLock { $0.append(event) } } }
        for _ in 0..<500 where !until(events.withLock { $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        return events.withLock { $0 }
    }

    func testThePageThenTheChatAsTheWebClientAsksForThem() async throws {
        let web = EmbeddedWeb([Self.watchURL: .text(Self.page)])
        web.answer(startingWith: Self.base + "/youtubei/v1/live_chat/get_live_chat",
                   with: .ok(Array(try Fixtures.data("pytchat_textmessage.json"))))
        web.answer(startingWith: Self.base + "/youtubei/v1/updated_metadata", with: .text(#"{"actions":[]}"#))
        let events = try await run(web) { $0.contains { if case .comment = $0 { true } else { false } } }
        XCTAssertTrue(events.contains(.status(.live)))
        XCTAssertTrue(events.contains(.start(time: 1_714_557_600)))
        XCTAssertTrue(events.contains { if case .comment = $0 { true } else { false } }, "\(events)")
        // The channel is named before `live` and the first comment (the viewer memory keys the rows by it).
        let channel = try XCTUnwrap(events.firstIndex(of: .channel(id: "UCabcdefghijklmnopqrstuv")), "\(events)")
        XCTAssertLessThan(channel, try XCTUnwrap(events.firstIndex(of: .status(.live))))
        XCTAssertLessThan(channel, try XCTUnwrap(events.firstIndex { if case .comment = $0 { true } else { false } }))

        let page = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(page.url, Self.watchURL)
        XCTAssertEqual(page.accept, "text/html,application/xhtml+xml")
        XCTAssertEqual(page.header("Cookie"), "SOCS=CAI", "no consent page")
        XCTAssertEqual(page.header("Accept-Language"), "en-US,en;q=0.9")
        let poll = try XCTUnwrap(web.requests(startingWith: Self.base + "/youtubei/v1/live_chat").first)
        XCTAssertEqual(poll.url, Self.base + "/youtubei/v1/live_chat/get_live_chat?prettyPrint=false&key=KEY_1")
        XCTAssertEqual(poll.method, .post)
        XCTAssertEqual(poll.header("X-YouTube-Client-Name"), "1")
        XCTAssertEqual(poll.header("X-YouTube-Client-Version"), "2.2024")
        XCTAssertEqual(poll.header("Origin"), Self.base)
        XCTAssertEqual(poll.header("Referer"), Self.watchURL)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(poll.body ?? [])) as? [String: Any])
        XCTAssertEqual(body["continuation"] as? String, "ALL")
        XCTAssertNil(poll.streamerServer)
    }

    func testFailuresAreShownAndATypedServerCarriesItsAllowance() async throws {
        let missing = EmbeddedWeb()
        missing.answer(startingWith: "https://", with: .status(404))
        let events = try await run(missing) { $0.contains { if case .status(.reconnecting) = $0 { true } else { false } } }
        guard case .status(.reconnecting(let reason))? = events.last else { return XCTFail("\(events)") }
        XCTAssertTrue(reason.hasPrefix("https://www.youtube.com/watch: HTTP 404; retrying in "), reason)

        let limited = EmbeddedWeb([Self.watchURL: .text(Self.page)])
        limited.answer(startingWith: Self.base + "/youtubei/", with: .status(429))
        let slowDown = try await run(limited) { $0.contains { if case .status(.reconnecting) = $0 { true } else { false } } }
        guard case .status(.reconnecting(let why))? = slowDown.last else { return XCTFail("\(slowDown)") }
        XCTAssertTrue(why.hasPrefix("YouTube says too many requests (HTTP 429); retrying in "), why)

        let relay = EmbeddedWeb()
        relay.answer(startingWith: "https://", with: .timesOut)
        _ = try await run(relay, server: "https://localhost:8443") { _ in !relay.requests.isEmpty }
        let request = try XCTUnwrap(relay.requests.first)
        XCTAssertEqual(request.url, "https://localhost:8443/watch?v=abcdefghijk")
        XCTAssertEqual(request.streamerServer, StreamerServer(host: "localhost", port: 8443))
    }
}
