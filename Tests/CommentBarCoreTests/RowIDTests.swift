// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarCore
import Testing

/// A row's id names its stream only when the bar reads several, and reads back as it was made.
@Suite struct RowIDTests {
    static func origin(_ index: Int, of count: Int) -> BarState.Origin {
        BarState.Origin(index: index, count: count, name: "s\(index)", service: "twitch", badge: PlatformBadge(rgb: 0x9146FF, sign: .bubble))
    }

    @Test func oneStreamKeepsTheFeedsOwnID() {
        #expect(RowID("abc/def", from: Self.origin(0, of: 1)).text == "abc/def")
        #expect(RowID.stream(ofRow: "3/abc", among: 1) == nil, "a lone stream's ids are never read for a stream")
    }

    @Test func severalStreamsTagEachRowAndReadItBack() {
        let id = RowID("yt:Cg0KC/x", from: Self.origin(2, of: 3))
        #expect(id.text == "2/yt:Cg0KC/x")
        #expect(RowID(parsing: id.text) == id, "the feed's own slash stays in its id")
        #expect(RowID.stream(ofRow: id.text, among: 3) == 2)
    }

    @Test func anIDOfNoStreamNamesNone() {
        for text in ["abc", "/x", "a/b", "-1/x", ""] {
            #expect(RowID(parsing: text).stream == nil, "\(text)")
            #expect(RowID(parsing: text).text == text, "\(text)")
        }
    }

    @Test func aStreamsClearTouchesOnlyItsRows() {
        var state = BarState()
        for index in 0..<2 {
            state.apply(.comment(ChatLine(id: "m", user: "u", text: "hi \(index)")), from: Self.origin(index, of: 2))
        }
        state.apply(.clear, from: Self.origin(0, of: 2))
        #expect(state.lines.map(\.id) == ["1/m"])
    }
}
