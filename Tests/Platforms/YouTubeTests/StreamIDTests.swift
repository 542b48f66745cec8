// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import XCTest
@testable import YouTubePlatform

final class StreamIDTests: XCTestCase {
    func testWhatMayBePasted() throws {
        let video = YouTubeStreamID.video("dQw4w9WgXcQ")
        for text in ["dQw4w9WgXcQ", " dQw4w9WgXcQ ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                     "https://www.youtube.com/watch?app=desktop&v=dQw4w9WgXcQ&t=10s", "youtube.com/watch?v=dQw4w9WgXcQ",
                     "https://m.youtube.com/watch?v=dQw4w9WgXcQ", "https://youtu.be/dQw4w9WgXcQ?si=abc",
                     "https://www.youtube.com/live/dQw4w9WgXcQ?feature=share", "https://www.youtube.com/shorts/dQw4w9WgXcQ",
                     "https://www.youtube.com/live_chat?is_popout=1&v=dQw4w9WgXcQ"] {
            XCTAssertEqual(try YouTubeStreamID.parse(text), video, text)
        }
        XCTAssertEqual(try YouTubeStreamID.parse("@LofiGirl"), .channel("@LofiGirl"))
        XCTAssertEqual(try YouTubeStreamID.parse("https://www.youtube.com/@LofiGirl"), .channel("@LofiGirl"))
        XCTAssertEqual(try YouTubeStreamID.parse("https://www.youtube.com/@LofiGirl/live"), .channel("@LofiGirl"))
        XCTAssertEqual(try YouTubeStreamID.parse("https://www.youtube.com/channel/UCSJ4gkVC6NrvII8umztf0Ow"),
                       .channel("channel/UCSJ4gkVC6NrvII8umztf0Ow"))
        XCTAssertEqual(try YouTubeStreamID.parse("@ホロライブ"), .channel("@%E3%83%9B%E3%83%AD%E3%83%A9%E3%82%A4%E3%83%96"))
        XCTAssertEqual(try YouTubeStreamID.parse("https://www.youtube.com/@%E3%83%9B%E3%83%AD"), .channel("@%E3%83%9B%E3%83%AD"))
        XCTAssertEqual(YouTubeStreamID.channel("@x").pagePath, "/@x/live")
        XCTAssertEqual(video.pagePath, "/watch?v=dQw4w9WgXcQ")
    }

    func testRefusals() {
        for bad in ["", "   ", "short", "dQw4w9WgXcQx", "https://example.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/watch",
                    "https://www.youtube.com/watch?v=../../etc", "@", "@a/b", "@a b", "file:///etc/passwd",
                    "https://www.youtube.com/feed/subscriptions", String(repeating: "a", count: 600)] {
            XCTAssertThrowsError(try YouTubeStreamID.parse(bad), bad.debugDescription)
        }
    }

    func testServerSetting() throws {
        func web(_ server: String) throws -> WebAPI {
            try YouTubeService.web(FeedRequest(streamID: "x", server: server, web: EmbeddedWeb()))
        }
        XCTAssertEqual(try web("").base, "https://www.youtube.com")
        XCTAssertNil(try web("").streamerServer)
        XCTAssertEqual(try web("https://localhost:8443/").base, "https://localhost:8443")
        XCTAssertEqual(try web("https://localhost:8443/").streamerServer, StreamerServer(host: "localhost", port: 8443))
        for bad in ["http://www.youtube.com", "wss://x", "https://", "https://x?y=1", "/etc/passwd"] {
            XCTAssertThrowsError(try web(bad), bad)
        }
        XCTAssertNoThrow(try YouTubeService.description.makeFeed(FeedRequest(streamID: "@name", web: EmbeddedWeb())))
        XCTAssertThrowsError(try YouTubeService.description.makeFeed(FeedRequest(streamID: "nope", web: EmbeddedWeb())))
    }
}
