// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNetTesting
import XCTest
@testable import NiconicoPlatform

final class NiconicoStreamIDTests: XCTestCase {
    func testProgrammesCommunitiesChannelsAndUsers() throws {
        let cases: [(String, String, NiconicoStreamID.Kind)] = [
            ("lv345678901", "lv345678901", .programme),
            (" lv1 ", "lv1", .programme),
            ("https://live.nicovideo.jp/watch/lv345678901?ref=top&from=x#comments", "lv345678901", .programme),
            ("live.nicovideo.jp/watch/lv2", "lv2", .programme),
            ("https://sp.live.nicovideo.jp/watch/lv3", "lv3", .programme),
            ("https://nico.ms/lv4", "lv4", .programme),
            ("co77", "co77", .broadcaster),
            ("https://live.nicovideo.jp/watch/co77", "co77", .broadcaster),
            ("https://com.nicovideo.jp/community/co77", "co77", .broadcaster),
            ("ch2646485", "ch2646485", .broadcaster),
            ("https://ch.nicovideo.jp/ch2646485", "ch2646485", .broadcaster),
            ("user/98765", "user/98765", .broadcaster),
            ("https://www.nicovideo.jp/user/98765", "user/98765", .broadcaster),
            ("https://www.nicovideo.jp/user/98765/live_programs", "user/98765", .broadcaster),
            ("https://live.nicovideo.jp/watch/user/98765", "user/98765", .broadcaster),
        ]
        for (text, path, kind) in cases {
            let id = try NiconicoStreamID.parse(text)
            XCTAssertEqual(id.watchPath, path, text)
            XCTAssertEqual(id.kind, kind, text)
        }
    }

    func testOtherTextIsRefused() {
        for bad in ["", "  ", "sm9", "lv", "lv12a", "lv1/../../x", "co-1", "user/abc", "https://example.com/watch/lv1",
                    "file:///etc/passwd", "/etc/passwd", "ftp://live.nicovideo.jp/watch/lv1", "javascript:alert(1)",
                    "https://live.nicovideo.jp/watch/", "lv" + String(repeating: "1", count: 30),
                    String(repeating: "x", count: 600)] {
            XCTAssertThrowsError(try NiconicoStreamID.parse(bad), bad.debugDescription)
        }
    }

    func testServiceBuildsAFeedAndChecksTheServer() throws {
        let feed = try NiconicoService.description.makeFeed(.init(streamID: "lv1", web: EmbeddedWeb()))
        XCTAssertEqual((feed as? NiconicoFeed)?.watchURL, "https://live.nicovideo.jp/watch/lv1")
        let relayed = try NiconicoService.description.makeFeed(.init(streamID: "co2", server: "https://relay.example/nico/", web: EmbeddedWeb()))
        XCTAssertEqual((relayed as? NiconicoFeed)?.watchURL, "https://relay.example/nico/watch/co2")
        for bad in ["http://live.nicovideo.jp", "file:///tmp", "wss://x", "https://a b"] {
            XCTAssertThrowsError(try NiconicoService.description.makeFeed(.init(streamID: "lv1", server: bad, web: EmbeddedWeb())), bad)
        }
    }
}
