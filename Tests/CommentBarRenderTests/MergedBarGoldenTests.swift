// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
@testable import CommentBarRender
import XCTest

/// A bar reading two streams: platform icons before the names, a bot and a command
/// hidden, an NG word masked, a mention and a Super Chat standing out.
final class MergedBarGoldenTests: XCTestCase {
    func testTwoStreamsWithIconsAndHighlights() throws {
        let twitch = FeedTimeline(entries: [
            .init(at: 0, event: .start(time: 1_700_000_000)),
            .init(at: 1, event: .comment(ChatLine(id: "t1", user: "GamerJoe", text: "hi from Twitch"))),
            .init(at: 2, event: .comment(ChatLine(id: "t2", user: "Nightbot", text: "Follow the channel!"))),
            .init(at: 3, event: .comment(ChatLine(id: "t3", user: "GamerJoe", text: "!uptime"))),
            .init(at: 4, event: .gift(ChatLine(id: "t4", user: "Lena", text: "GG", kind: .gift(name: "Bits", count: 1000)))),
        ], origin: 1_700_000_000)
        let youtube = FeedTimeline(entries: [
            .init(at: 1.5, event: .comment(ChatLine(id: "y1", user: "さくら", text: "こんにちは、さくらです"))),
            .init(at: 2.5, event: .comment(ChatLine(id: "y2", user: "troll", text: "this is ＮＧ"))),
            .init(at: 3.5, event: .comment(ChatLine(id: "y3", user: "コウ", text: "@streamer 見てます！"))),
            .init(at: 4.5, event: .gift(ChatLine(id: "y4", user: "Taro", text: "応援してます", kind: .gift(name: "¥1,000", count: 1),
                                                  highlight: RGBColor(hex: "#1de9b6")))),
        ], origin: 1_700_000_000)
        var settings = BarSettings()
        settings.ngWords = ["ng"]
        settings.highlightNames = ["streamer"]
        settings.highlightFirst = false
        let (state, now) = FeedTimeline.mergedState(
            [(twitch, BarState.Origin(index: 0, count: 2, name: "Twitch", service: "twitch",
                                      badge: PlatformBadge(rgb: 0x9146FF, sign: .bubble))),
             (youtube, BarState.Origin(index: 1, count: 2, name: "YouTube", service: "youtube",
                                       badge: PlatformBadge(rgb: 0xFF0033, sign: .play)))],
            at: 10, filters: settings.filters)
        XCTAssertEqual(state.lines.map(\.platform), ["twitch", "youtube", "youtube", "youtube", "twitch", "youtube"])
        XCTAssertFalse(state.lines.contains { $0.user == "Nightbot" || $0.text == "!uptime" })
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        let frame = try XCTUnwrap(pool.newestFrame)
        try assertMatchesGolden(frame, named: "merged-two-streams-1280x360.png")
        XCTAssert(bytes(frame) == renderFromNothing(state, now: now, settings: settings))
    }
}
