// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNetTesting
import XCTest
@testable import TwitchPlatform

final class TwitchChannelTests: XCTestCase {
    func testTwitchChannels() throws {
        XCTAssertEqual(try TwitchChannel.parse("Some_Streamer42"), "#some_streamer42")
        XCTAssertEqual(try TwitchChannel.parse("#chan"), "#chan")
        for bad in ["", "#", "##chan", "a b", "a,b", "a\r\nJOIN #x", "a\u{0}", "ａｂｃ", String(repeating: "a", count: 26)] {
            XCTAssertThrowsError(try TwitchChannel.parse(bad), bad.debugDescription)
        }
        XCTAssertNoThrow(try TwitchChannel.parse(String(repeating: "a", count: 25)))
    }

    func testErrorMessagesAreOneReadableLine() {
        do {
            _ = try TwitchService.description.makeFeed(.init(streamID: "a\r\nJOIN #x", web: EmbeddedWeb()))
            XCTFail("accepted")
        } catch {
            XCTAssertFalse(error.message.contains("\n"))
            XCTAssertTrue(error.message.contains("twitch channel"), error.message)
        }
    }

    func testServerDefaultsToTwitchAndMayBeOverridden() {
        XCTAssertNoThrow(try TwitchService.description.makeFeed(.init(streamID: "chan", web: EmbeddedWeb())))
        XCTAssertNoThrow(try TwitchService.description.makeFeed(.init(streamID: "chan", server: "irc://127.0.0.1:6667", web: EmbeddedWeb())))
        XCTAssertThrowsError(try TwitchService.description.makeFeed(.init(streamID: "chan", server: "http://x", web: EmbeddedWeb())))
    }
}
