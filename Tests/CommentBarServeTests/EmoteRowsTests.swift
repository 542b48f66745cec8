// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarServe
import XCTest

final class EmoteRowsTests: XCTestCase {
    private func row(_ index: Int) -> ChatLine {
        ChatLine(id: "r\(index)", user: "u", text: "Kappa \(index)",
                 emotes: [Emote(range: 0..<5, name: "Kappa", url: "https://emotes.example/\(index).png")])
    }

    func testTheNewestRowsAreAsked() {
        var state = BarState()
        for index in 0..<80 { state.apply(.comment(row(index))) }
        XCTAssertEqual(EmoteRows.rows(of: state).map(\.id), (30..<80).map { "r\($0)" })
    }

    /// A row pinned long after it scrolled away still shows in its strip: its pictures are asked
    /// for too, and pinning it changes what is asked.
    func testAPinnedRowIsAskedHoweverOld() {
        var state = BarState()
        for index in 0..<80 { state.apply(.comment(row(index))) }
        let before = EmoteRows.key(of: state)
        state.pin(row(3), until: nil)
        XCTAssertNotEqual(EmoteRows.key(of: state), before)
        XCTAssertEqual(EmoteRows.rows(of: state).last?.id, "r3")
        XCTAssertEqual(EmoteRows.rows(of: state).count, EmoteRows.newest + 1)
    }
}
