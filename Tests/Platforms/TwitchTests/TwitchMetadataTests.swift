// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import TwitchPlatform

/// Twitch GraphQL answers (shaped as gql.twitch.tv sends them) → viewers and the stream start.
final class TwitchMetadataTests: XCTestCase {
    private func parse(_ json: String) -> StreamMetadata { StreamMetadata.parse(Array(json.utf8)) }

    func testLiveOfflineAndErrors() {
        XCTAssertEqual(parse(#"{"data":{"user":{"stream":{"createdAt":"2024-05-01T10:00:00Z","viewersCount":1234}}},"extensions":{"durationMilliseconds":41,"requestID":"01HXABC"}}"#),
                       .live(viewers: 1234, start: 1_714_557_600))
        XCTAssertEqual(parse(#"{"data":{"user":{"stream":null}},"extensions":{}}"#), .offline)
        XCTAssertEqual(parse(#"{"data":{"user":null}}"#), .unreadable("gql.twitch.tv: no such channel"))
        XCTAssertEqual(parse(#"{"errors":[{"message":"service timeout","path":["user"]}],"data":{"user":null}}"#),
                       .unreadable("gql.twitch.tv: service timeout"))
        XCTAssertEqual(parse(#"{"error":"Unauthorized","status":401,"message":"The \"Client-ID\" header is invalid."}"#),
                       .unreadable("gql.twitch.tv: no data in the answer"))
        guard case .unreadable = parse("<html>bad gateway</html>") else { return XCTFail("junk") }
        guard case .unreadable = parse(#"{"data":{"user":{"stream":{"viewersCount":-3}}}}"#) else { return XCTFail("negative") }
        XCTAssertEqual(parse(#"{"data":{"user":{"stream":{"createdAt":"yesterday","viewersCount":0}}}}"#), .live(viewers: 0, start: nil))
    }

    func testTheQueryNamesTheChannel() throws {
        let request = TwitchMetadataPoller(login: "cbtest").request
        XCTAssertEqual(request.query, #"query { user(login: "cbtest") { stream { createdAt viewersCount } } }"#)
    }
}
