// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

final class LayeredRenderingTests: XCTestCase {
    /// Every frame of the demo, built layer on layer and on the frame before it,
    /// is byte for byte the frame a renderer with no caches makes of the same state.
    func testLayeredFramesEqualFullRedraws() {
        let timeline = DemoScript.timeline
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        var kinds: [BarRenderer.Work.Kind: Int] = [:]
        var time = 0.0
        while time <= timeline.duration + 1 {
            let (state, now) = timeline.state(at: time)
            if renderer.render(state, now: now, into: pool) {
                kinds[renderer.lastWork.kind, default: 0] += 1
                guard let frame = pool.newestFrame else { return XCTFail("no frame") }
                XCTAssert(bytes(frame) == renderFromNothing(state, now: now), "frame at \(time) s differs from a full redraw")
            }
            time += 0.25
        }
        // The test means something only if it went through every path.
        XCTAssertGreaterThan(kinds[.composed] ?? 0, 0)
        XCTAssertGreaterThan(kinds[.scrolled] ?? 0, 5)
        XCTAssertGreaterThan(kinds[.copied] ?? 0, 5)
    }

    /// The frame loop's way: rows laid out as soon as the state changes (`prepare`), the frame
    /// later. Every frame is still byte for byte a full redraw, and no frame lays a row out.
    func testPreparedRowsGiveTheSameFrames() {
        let timeline = DemoScript.timeline
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        var prepared = 0
        var frames = 0
        var time = 0.0
        while time <= timeline.duration + 1 {
            let (state, now) = timeline.state(at: time)
            prepared += renderer.prepare(state)
            if renderer.render(state, now: now, into: pool) {
                frames += 1
                if frames > 1 { XCTAssertEqual(renderer.lastWork.linesLaidOut, 0, "at \(time) s the frame laid a row out") }
                guard let frame = pool.newestFrame else { return XCTFail("no frame") }
                XCTAssert(bytes(frame) == renderFromNothing(state, now: now), "frame at \(time) s differs from a full redraw")
            }
            time += 0.25
        }
        XCTAssertGreaterThan(prepared, 10, "rows were laid out ahead of their frames")
    }

    /// Fonts made anew between frames (a long chat's glyphs let go) draw the same pixels.
    func testFontsMadeAnewDrawTheSameFrames() {
        let saved = TextEngine.glyphs
        TextEngine.glyphs = GlyphBudget(limit: 60)
        defer { TextEngine.glyphs = GlyphBudget(limit: saved.limit) }
        let generation = TextEngine.fontMapGeneration
        let timeline = DemoScript.timeline
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        for time in stride(from: 0.0, through: 40, by: 0.5) {
            let (state, now) = timeline.state(at: time)
            renderer.prepare(state)
            if renderer.render(state, now: now, into: pool) {
                XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now), "frame at \(time) s")
            }
        }
        XCTAssertGreaterThan(TextEngine.fontMapGeneration, generation + 2, "the fonts were made anew")
    }

    func testTheGlyphBudgetCountsEachCharacterOnce() {
        var budget = GlyphBudget(limit: 3)
        budget.note("aab")
        budget.note("ba")
        XCTAssertEqual(budget.count, 2)
        XCTAssertFalse(budget.isSpent)
        budget.note("漢字😀😀")
        XCTAssertEqual(budget.count, 5)
        XCTAssertTrue(budget.isSpent)
    }

    func testNothingChangedMakesNoFrame() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 640, height: 200)
        let renderer = BarRenderer(settings: BarSettings(), width: 640, height: 200)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        XCTAssertFalse(renderer.render(state, now: now + 0.5, into: pool), "same second, same state")
        XCTAssertEqual(pool.publishedCount, 1)
        XCTAssertEqual(renderer.lastWork, BarRenderer.Work())
        XCTAssertTrue(renderer.render(state, now: now + 1, into: pool), "the clock moved on")
        XCTAssertEqual(renderer.lastWork.kind, .copied)
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 0)
    }

    func testSteadyFramesCopyOnlyWhatChanged() {
        var (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        let frameBytes = 1280 * 360 * 4
        for _ in 0..<4 { now += 1; renderer.render(state, now: now, into: pool) }
        XCTAssertEqual(renderer.lastWork.kind, .copied)
        XCTAssertLessThan(renderer.lastWork.bytesCaughtUp, frameBytes / 20, "a clock tick catches up only the clock")
        for index in 0..<4 {
            state.apply(.comment(ChatLine(id: "s\(index)", user: "u", text: "row \(index)")))
            renderer.render(state, now: now, into: pool)
        }
        XCTAssertEqual(renderer.lastWork.kind, .scrolled)
        XCTAssertEqual(renderer.lastWork.bytesCaughtUp, 0, "new comments rewrite only the comment area")
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now))
    }

    /// A tall bar with few rows: a new comment writes only the rows from the topmost comment
    /// (of this frame and of the frame the slot held) down; rows coming and going (deletions,
    /// a long row) still give the frames of a full redraw.
    func testAScrollWritesOnlyTheRowsUnderTheComments() {
        var settings = BarSettings()
        settings.maxLines = 4
        var (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 720)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 720)
        renderer.render(state, now: now, into: pool)
        var scrolled: [Int] = []
        for index in 0..<12 {
            let text = index % 5 == 3 ? String(repeating: "長いコメント ", count: 30) : "row \(index) ✨"
            state.apply(.comment(ChatLine(id: "t\(index)", user: "u\(index % 3)", text: text)))
            if index % 4 == 2, let oldest = state.lines.suffix(3).first { state.apply(.delete(id: oldest.id)) }
            renderer.prepare(state)
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            if renderer.lastWork.kind == .scrolled { scrolled.append(renderer.lastWork.rowsScrolled) }
            XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings, width: 1280, height: 720),
                      "frame \(index)")
        }
        let areaHeight = BarLayout(settings: settings.clamped(), width: 1280, height: 720).comments.height
        XCTAssertGreaterThan(scrolled.count, 5)
        XCTAssertLessThan(scrolled.min() ?? areaHeight, areaHeight / 2, "rows above the comments were written: \(scrolled)")
        now += 0
    }

    /// Issue 31: short comments scroll only as wide as the widest row (of this frame and of the
    /// frame the slot held); a long row coming and scrolling away leaves no trace in any slot.
    func testAScrollWritesOnlyAsWideAsTheRows() {
        var (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        let area = BarLayout(settings: BarSettings().clamped(), width: 1280, height: 360).comments
        renderer.render(state, now: now, into: pool)
        var written: [Int] = []
        for index in 0..<14 {
            let text = index == 4 ? String(repeating: "長いコメント ", count: 30) : "w\(index)"
            state.apply(.comment(ChatLine(id: "w\(index)", user: "u\(index % 2)", text: text)))
            renderer.prepare(state)
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            if renderer.lastWork.kind == .scrolled { written.append(renderer.lastWork.bytesScrolled) }
            XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now), "frame \(index)")
        }
        XCTAssertGreaterThan(written.count, 8)
        XCTAssertLessThan(written.last ?? .max, area.width * area.height * 4 / 3,
                          "short rows scrolled as wide as the area: \(written)")
    }

    /// The bar's colour changes (the frame is composed on a new stable layer), then comments
    /// scroll through every slot: no slot keeps the old colour above or beside the rows.
    func testANewBackgroundReachesEverySlotsCommentArea() {
        var (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 360)
        var settings = BarSettings()
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        for index in 0..<3 {
            state.apply(.comment(ChatLine(id: "a\(index)", user: "u", text: "before \(index)")))
            renderer.render(state, now: now, into: pool)
        }
        settings.backgroundColor = 0xFF40_2010
        renderer.update(settings: settings)
        for index in 0..<6 {
            state.apply(.comment(ChatLine(id: "b\(index)", user: "u", text: "after \(index)")))
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings), "frame \(index)")
            now += 0
        }
    }

    /// The renderer knows rows by the state's revision: a copy of the state changed apart
    /// (another comment) is drawn as itself, not taken for the rows drawn last.
    func testAStateChangedApartIsDrawnAsItself() {
        let (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        var left = state, right = state
        left.apply(.comment(ChatLine(id: "left", user: "u", text: "左のコメント")))
        right.apply(.comment(ChatLine(id: "right", user: "u", text: "右のコメント")))
        XCTAssertTrue(renderer.render(left, now: now, into: pool))
        XCTAssertTrue(renderer.render(right, now: now, into: pool))
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(right, now: now))
    }

    func testRemovingTheOldestRowLeavesNoTrace() {
        var (state, now) = DemoScript.timeline.state(at: 30)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        if let oldestShown = state.lines.suffix(3).first { state.apply(.delete(id: oldestShown.id)) }
        for _ in 0..<4 {
            renderer.render(state, now: now, into: pool)
            XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now))
            now += 1
        }
    }

    /// A new comment's row is laid out once: by its frame, or before it (`prepare`, the frame
    /// loop's way), and then the frame only places it.
    func testNewCommentLaysOutOnlyThatComment() {
        for prepared in [false, true] {
            var (state, now) = DemoScript.timeline.state(at: 30)
            let pool = MemoryFramePool(width: 1280, height: 360)
            let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
            renderer.render(state, now: now, into: pool)
            state.apply(.comment(ChatLine(id: "new", user: "テスト", text: "新しいコメント ✨")))
            if prepared {
                XCTAssertEqual(renderer.prepare(state), 1)
                XCTAssertEqual(renderer.prepare(state), 0, "laid out once")
            }
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            XCTAssertEqual(renderer.lastWork.linesLaidOut, prepared ? 0 : 1)
            XCTAssertEqual(renderer.lastWork.linesBlended, 1)
            XCTAssertEqual(renderer.lastWork.kind, .scrolled)
            XCTAssertFalse(renderer.lastWork.stableRedrawn)
            XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now))
            now += 0
        }
    }

    func testSettingsChangesRedrawWhatTheyTouch() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        var settings = BarSettings()
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        // (The bar's colour does touch it: names and messages keep their contrast against it.)
        settings.backgroundOpacity = 50
        settings.cornerRadius = 4
        settings.showViewers = false
        renderer.update(settings: settings)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        XCTAssertTrue(renderer.lastWork.stableRedrawn)
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 0, "the bar's opacity and corners do not touch comment text")
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings))
        settings.font.size = 32
        renderer.update(settings: settings)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        XCTAssertGreaterThan(renderer.lastWork.linesLaidOut, 0)
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings))
    }

    func testClockTurnedOffAndOnComesBack() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        var settings = BarSettings()
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        let withClock = bytes(pool.newestFrame!)
        settings.showClock = false
        renderer.update(settings: settings)
        renderer.render(state, now: now, into: pool)
        XCTAssert(bytes(pool.newestFrame!) != withClock)
        settings.showClock = true
        renderer.update(settings: settings)
        renderer.render(state, now: now, into: pool)
        XCTAssert(bytes(pool.newestFrame!) == withClock, "the clock is back")
    }

    func testBoldAndItalicFromTheFontPickerReachTheComments() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        var settings = BarSettings()
        let plain = renderFromNothing(state, now: now, settings: settings)
        settings.font.flags = 1 | 2
        XCTAssert(renderFromNothing(state, now: now, settings: settings) != plain)
    }

    func testRoundedCornersOverCommentsFallBackToComposing() {
        var settings = BarSettings()
        settings.cornerRadius = 200
        let timeline = DemoScript.timeline
        let pool = MemoryFramePool(width: 640, height: 240)
        let renderer = BarRenderer(settings: settings, width: 640, height: 240)
        for time in stride(from: 0.0, through: 30, by: 0.5) {
            let (state, now) = timeline.state(at: time)
            if renderer.render(state, now: now, into: pool) {
                XCTAssertNotEqual(renderer.lastWork.kind, .scrolled, "the area under comments is not uniform")
                XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings, width: 640, height: 240))
            }
        }
    }
}
