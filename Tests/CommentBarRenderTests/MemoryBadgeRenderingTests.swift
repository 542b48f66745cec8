// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import XCTest

/// The viewer memory's marks on the rows: a small pill before the name (初見, おかえり, #12), and
/// the nickname in place of the display name.
final class MemoryBadgeRenderingTests: XCTestCase {
    private let now = 1_700_000_100.0

    private func row(_ id: String, _ user: String, _ text: String, marks: [RowMark] = [], nickname: String? = nil) -> ChatLine {
        var line = ChatLine(id: id, user: user, login: user.lowercased(), text: text)
        line.marks = marks
        line.nickname = nickname
        return line
    }

    private func state(_ lines: [ChatLine]) -> BarState {
        var state = BarState()
        state.apply(.start(time: 1_700_000_000))
        state.apply(.status(.live))
        for line in lines { state.apply(.comment(line)) }
        return state
    }

    private var settings: BarSettings {
        var settings = BarSettings()
        settings.highlightFirst = false
        return settings
    }

    /// The pool holds the frame's memory: it is returned with it.
    private func render(_ state: BarState) throws -> (pool: MemoryFramePool, frame: FrameBuffer) {
        let pool = MemoryFramePool(width: 1280, height: 360)
        BarRenderer(settings: settings, width: 1280, height: 360).render(state, now: now, into: pool)
        return (pool, try XCTUnwrap(pool.newestFrame))
    }

    /// Pixels of the first-time pill's teal (#26a69a), in the frame's BGRA bytes.
    private func tealPixels(_ frame: FrameBuffer) -> Int {
        let pixels = bytes(frame)
        var count = 0
        for offset in stride(from: 0, to: pixels.count, by: 4) {
            let (b, g, r) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
            if r < 70, g > 130, b > 120, abs(g - b) < 30 { count += 1 }
        }
        return count
    }

    func testMarksAreDrawnAsPillsBeforeTheName() throws {
        let lines = [
            row("1", "Sakura", "初見です！よろしくお願いします", marks: [RowMark(.firstTime, "初見")]),
            row("2", "Kenji", "久しぶり", marks: [RowMark(.back, "おかえり"), RowMark(.count, "#12")]),
            row("3", "alice_99", "今日も来ました", marks: [RowMark(.count, "#345")], nickname: "アリス"),
            row("4", "Bob", "no marks on this row"),
        ]
        let (pool, frame) = try render(state(lines))
        try assertMatchesGolden(frame, named: "memory-badges-1280x360.png")
        XCTAssertGreaterThan(tealPixels(frame), 150, "the first-time pill")
        let plain = try render(state(lines.map { var line = $0; line.marks = []; return line }))
        XCTAssertLessThan(tealPixels(plain.frame), 10, "nothing teal without the mark")
        XCTAssert(bytes(frame) == renderFromNothing(state(lines), now: now, settings: settings))
        withExtendedLifetime(pool) {}
    }

    func testTheNicknameReplacesTheDisplayName() throws {
        let nicknamed = try render(state([row("1", "alice_99", "hello", nickname: "Boss")]))
        var named = row("1", "Boss", "hello")
        named.login = "alice_99"
        let asName = try render(state([named]))
        let plain = try render(state([row("1", "alice_99", "hello")]))
        XCTAssert(bytes(nicknamed.frame) == bytes(asName.frame), "drawn as if Boss were the name")
        XCTAssert(bytes(nicknamed.frame) != bytes(plain.frame))
    }

    func testARowWithMarksIsLaidOutOnce() {
        let marked = state([row("1", "Sakura", "初見です", marks: [RowMark(.firstTime, "初見"), RowMark(.count, "#1")])])
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        XCTAssertTrue(renderer.render(marked, now: now, into: pool))
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 1)
        XCTAssertTrue(renderer.render(marked, now: now + 1, into: pool), "the clock moved")
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 0)
    }

    func testALongLabelIsCutAndBidiCannotEscapeItsPill() {
        let mark = RowMark(.firstTime, String(repeating: "長", count: 40) + "\u{202E}")
        XCTAssertEqual(mark.text.unicodeScalars.count, RowMark.maxScalars + 1, "cut, with an ellipsis")
        XCTAssertFalse(mark.text.unicodeScalars.contains("\u{202E}"))
    }
}
