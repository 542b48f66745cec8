// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import Foundation
import XCTest
@testable import TwitchPlatform

/// Twitch GraphQL answers (shaped as gql.twitch.tv sends them), served by the in-process web →
/// viewers and the stream start; the request as Twitch's web client makes it.
final class TwitchMetadataTests: XCTestCase {
    private func poll(_ answer: EmbeddedWeb.Answer) async -> (StreamMetadata?, WebFailure?, EmbeddedWeb) {
        let web = EmbeddedWeb([TwitchMetadataPoller.endpoint: answer])
        do {
            return (try await TwitchMetadataPoller(login: "cbtest", web: web).poll(), nil, web)
        } catch {
            return (nil, error, web)
        }
    }

    private func read(_ json: String) async -> StreamMetadata? { await poll(.text(json)).0 }

    func testLiveOfflineAndErrors() async {
        let live = await read(#"{"data":{"user":{"stream":{"createdAt":"2024-05-01T10:00:00Z","viewersCount":1234}}},"extensions":{"durationMilliseconds":41,"requestID":"01HXABC"}}"#)
        XCTAssertEqual(live, .live(viewers: 1234, start: 1_714_557_600))
        let offline = await read(#"{"data":{"user":{"stream":null}},"extensions":{}}"#)
        XCTAssertEqual(offline, .offline)
        let noUser = await read(#"{"data":{"user":null}}"#)
        XCTAssertEqual(noUser, .unreadable("gql.twitch.tv: no such channel"))
        let timeout = await read(#"{"errors":[{"message":"service timeout","path":["user"]}],"data":{"user":null}}"#)
        XCTAssertEqual(timeout, .unreadable("gql.twitch.tv: service timeout"))
        let unauthorized = await read(#"{"error":"Unauthorized","status":401,"message":"The \"Client-ID\" header is invalid."}"#)
        XCTAssertEqual(unauthorized, .unreadable("gql.twitch.tv: no data in the answer"))
        let negative = await read(#"{"data":{"user":{"stream":{"viewersCount":-3}}}}"#)
        guard case .unreadable? = negative else { return XCTFail("negative") }
        let badDate = await read(#"{"data":{"user":{"stream":{"createdAt":"yesterday","viewersCount":0}}}}"#)
        XCTAssertEqual(badDate, .live(viewers: 0, start: nil))
    }

    func testFailuresSayWhatWentWrong() async {
        let junk = await poll(.text("<html>bad gateway</html>")).1
        XCTAssertEqual(junk?.description, "https://gql.twitch.tv/gql: not the expected JSON")
        let limited = await poll(.status(429)).1
        XCTAssertEqual(limited?.status, 429, "the poller waits 5 minutes after a 429")
        let slow = await poll(.timesOut).1
        XCTAssertEqual(slow?.description, "https://gql.twitch.tv/gql: timed out")
        let huge = await poll(.ok(Array(repeating: 0x20, count: (256 << 10) + 1))).1
        XCTAssertEqual(huge?.description, "https://gql.twitch.tv/gql: 262145 bytes is more than 256 KiB")
    }

    func testTheQueryIsAPostAsTheWebClientSendsIt() async throws {
        let (_, _, web) = await poll(.text(#"{"data":{"user":{"stream":null}}}"#))
        let request = try XCTUnwrap(web.requests.first)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.url, "https://gql.twitch.tv/gql")
        XCTAssertEqual(request.header("Client-ID"), TwitchMetadataPoller.clientID)
        XCTAssertEqual(request.header("Content-Type"), "application/json")
        XCTAssertNil(request.streamerServer)
        let query = try JSONDecoder().decode([String: String].self, from: Data(request.body ?? []))
        XCTAssertEqual(query, ["query": #"query { user(login: "cbtest") { stream { createdAt viewersCount } } }"#])
    }
}
