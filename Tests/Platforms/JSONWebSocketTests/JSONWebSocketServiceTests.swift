// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNet
import CommentBarNetTesting
import XCTest
@testable import JSONWebSocketPlatform

final class JSONWebSocketServiceTests: XCTestCase {
    func testStreamIsPercentEncodedIntoTheServerURL() throws {
        let feed = try XCTUnwrap(try JSONWebSocketService.description.makeFeed(
            .init(streamID: "a b/é?#", server: "ws://127.0.0.1:9000/chat/{stream}?x=1", web: EmbeddedWeb())) as? JSONWebSocketFeed)
        XCTAssertEqual(feed.endpoint.transport, .webSocket(path: "/chat/a%20b%2F%C3%A9%3F%23?x=1"))
    }

    func testServerRules() {
        XCTAssertThrowsError(try JSONWebSocketService.description.makeFeed(.init(streamID: "x", server: "irc://h", web: EmbeddedWeb())))
        XCTAssertThrowsError(try JSONWebSocketService.description.makeFeed(.init(streamID: "", server: "ws://h/{stream}", web: EmbeddedWeb())))
        XCTAssertThrowsError(try JSONWebSocketService.description.makeFeed(.init(streamID: "x", server: "", web: EmbeddedWeb())))
        XCTAssertThrowsError(try JSONWebSocketService.description.makeFeed(
            .init(streamID: String(repeating: "a", count: 257), server: "ws://h/{stream}", web: EmbeddedWeb())))
    }
}
