// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import XCTest

final class MergedStreamsTests: XCTestCase {
    private let twitch = BarState.Origin(index: 0, count: 2, name: "Twitch", service: "twitch",
                                         badge: PlatformBadge(rgb: 0x9146FF, sign: .bubble))
    private let youtube = BarState.Origin(index: 1, count: 2, name: "YouTube", service: "youtube",
                                          badge: PlatformBadge(rgb: 0xFF0033, sign: .play))

    func testRowsMergeAndCountersCombine() {
        var state = BarState()
        state.apply(.status(.live), from: twitch)
        state.apply(.status(.live), from: youtube)
        state.apply(.comment(ChatLine(id: "1", user: "a", text: "from twitch")), from: twitch)
        state.apply(.comment(ChatLine(id: "1", user: "b", text: "from youtube")), from: youtube)
        XCTAssertEqual(state.lines.map(\.text), ["from twitch", "from youtube"], "the same id on two streams is two rows")
        XCTAssertEqual(state.lines.map(\.platform), ["twitch", "youtube"])
        XCTAssertEqual(state.lines.map(\.platformBadge), [twitch.badge, youtube.badge], "each row carries its stream's badge")
        state.apply(.viewers(10), from: twitch)
        state.apply(.viewers(32), from: youtube)
        XCTAssertEqual(state.viewers, 42)
        XCTAssertEqual(state.streams.map(\.viewers), [10, 32])
        state.apply(.start(time: 2000), from: twitch)
        state.apply(.start(time: 1000), from: youtube)
        XCTAssertEqual(state.streamStart, 1000, "the clock uses the earliest start")
        state.apply(.gift(ChatLine(id: "g", user: "c", text: "", kind: .gift(name: "Bits", count: 5))), from: twitch)
        state.apply(.gift(ChatLine(id: "g", user: "d", text: "", kind: .gift(name: "¥100", count: 1))), from: youtube)
        XCTAssertEqual(state.giftsTotal, 6)
    }

    func testDeletionsTouchOnlyTheirStream() {
        var state = BarState()
        state.apply(.comment(ChatLine(id: "1", user: "same", text: "t")), from: twitch)
        state.apply(.comment(ChatLine(id: "1", user: "same", text: "y")), from: youtube)
        state.apply(.delete(id: "1"), from: twitch)
        XCTAssertEqual(state.lines.map(\.text), ["y"])
        state.apply(.comment(ChatLine(id: "2", user: "same", text: "t2")), from: twitch)
        state.apply(.deleteUser(user: "same"), from: youtube)
        XCTAssertEqual(state.lines.map(\.text), ["t2"])
        state.apply(.clear, from: youtube)
        XCTAssertEqual(state.lines.map(\.text), ["t2"])
    }

    func testTheBarSaysWhichStreamIsReconnecting() {
        var state = BarState()
        state.apply(.status(.connecting), from: twitch)
        state.apply(.status(.live), from: youtube)
        XCTAssertEqual(state.status, .connecting, "a stream still connecting is not called reconnecting")
        state.apply(.status(.live), from: twitch)
        state.apply(.status(.reconnecting(reason: "timeout")), from: youtube)
        XCTAssertEqual(state.status, .reconnecting(reason: "YouTube: timeout"))
        state.apply(.comment(ChatLine(id: "1", user: "a", text: "still flowing")), from: twitch)
        XCTAssertEqual(state.lines.count, 1)
        state.apply(.status(.live), from: youtube)
        XCTAssertEqual(state.status, .live)
    }
}
