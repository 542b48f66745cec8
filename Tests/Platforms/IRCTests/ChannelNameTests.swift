// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarNetTesting
import XCTest
@testable import IRCPlatform

final class ChannelNameTests: XCTestCase {
    func testIRCChannels() throws {
        XCTAssertEqual(try ChannelName.irc("linux"), "#linux")
        XCTAssertEqual(try ChannelName.irc("#linux"), "#linux")
        XCTAssertEqual(try ChannelName.irc("##linux"), "##linux")
        XCTAssertEqual(try ChannelName.irc("日本語"), "#日本語")
        for bad in ["", "#", "a b", "a,b", "a:b", "a\rb", "a\nb", "a\u{0}", "a\u{7}", String(repeating: "a", count: 51)] {
            XCTAssertThrowsError(try ChannelName.irc(bad), bad.debugDescription)
        }
    }

    func testIRCNeedsAServer() {
        XCTAssertThrowsError(try IRCService.description.makeFeed(.init(streamID: "chan", server: "", web: EmbeddedWeb())))
        XCTAssertNoThrow(try IRCService.description.makeFeed(.init(streamID: "chan", server: "ircs://irc.libera.chat", web: EmbeddedWeb())))
    }
}
