// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import XCTest

/// Rows that enter, fade and travel (issue 38), and the direction rows stack in. Each moves only
/// while it must: frames are made then, and none once everything is at rest.
final class LookMotionTests: XCTestCase {
    private let t0 = 1_700_000_000.0

    func testTheNewestRowIsBelowOrAboveTheOlderOnes() throws {
        for newest in ["bottom", "top"] {
            let bench = LookBench(try lookSettings(#"{"newest":"\#(newest)"}"#))
            for index in 0..<4 { bench.add(row("r\(index)", "viewer\(index)", "comment number \(index)")) }
            bench.render(at: t0)
            let rows = bench.elements
            let newestY = try XCTUnwrap(rows["row r3"]).y
            let olderYs = try (0..<3).map { try XCTUnwrap(rows["row r\($0)"]).y }
            if newest == "bottom" {
                XCTAssertTrue(olderYs.allSatisfy { $0 < newestY }, "newest at the bottom: \(rows)")
                XCTAssertEqual(olderYs, olderYs.sorted(), "older rows above, oldest on top")
            } else {
                XCTAssertTrue(olderYs.allSatisfy { $0 > newestY }, "newest on top: \(rows)")
                XCTAssertEqual(olderYs, olderYs.sorted(by: >), "older rows below, oldest lowest")
            }
        }
    }

    /// Frames built on the last one (rows scrolling down from the top, bubbles, outlines, a chat
    /// box) are byte for byte the frames a renderer with no caches makes of the same state.
    func testLayeredFramesEqualFullRedrawsInEveryLayout() throws {
        for json in [#"{"newest":"top"}"#, #"{"layout":"box","row_style":"bubble","text_outline":2}"#,
                     #"{"layout":"box","newest":"top","text_shadow":true,"show_avatar":false}"#] {
            let settings = try lookSettings(json, width: 640, height: 300)
            let bench = LookBench(settings)
            var scrolled = 0
            for index in 0..<30 {
                bench.add(row("r\(index)", "viewer\(index % 5)", String(repeating: "word \(index) ", count: index % 4 + 1)))
                guard bench.render(at: t0 + Double(index)) else { continue }
                if bench.renderer.lastWork.kind == .scrolled { scrolled += 1 }
                let fresh = LookBench(settings)
                fresh.state = bench.state
                fresh.render(at: t0 + Double(index))
                XCTAssert(bench.frame == fresh.frame, "\(json): frame \(index) differs from a full redraw")
            }
            XCTAssertGreaterThan(scrolled, 10, "\(json): the rows scrolled")
        }
    }

    func testARowFadesOutAfterItsTimeAndThenNothingMoves() throws {
        let bench = LookBench(try lookSettings(#"{"fade_after":2,"bg_opacity":0,"show_avatar":false}"#))
        bench.render(at: t0)
        bench.add(row("a", "Fader", "I will fade", color: "#ff80ff"))
        bench.render(at: t0 + 1)
        let rect = try XCTUnwrap(bench.elements["row a"])
        XCTAssertEqual(bench.maxAlpha(in: rect), 255, "shown before fade_after")
        XCTAssertEqual(try XCTUnwrap(bench.renderer.nextChange(after: t0 + 1)), t0 + 3, accuracy: 1e-6,
                       "the loop is woken when it starts to fade, not before")
        XCTAssertFalse(bench.render(at: t0 + 2.5), "no frame while it waits")
        XCTAssertTrue(bench.render(at: t0 + 3.2))
        let fading = bench.maxAlpha(in: rect)
        XCTAssertTrue(fading > 0 && fading < 255, "half way through its fade: alpha \(fading)")
        XCTAssertTrue(bench.renderer.showsAnimation)
        XCTAssertTrue(bench.render(at: t0 + 3.6))
        XCTAssertEqual(bench.maxAlpha(in: rect), 0, "gone after fade_after and the fade")
        XCTAssertNil(bench.elements["row a"])
        XCTAssertNil(bench.renderer.nextChange(after: t0 + 3.6), "nothing left to move")
        XCTAssertFalse(bench.renderer.showsAnimation)
        XCTAssertFalse(bench.render(at: t0 + 10), "an idle bar makes no frames")
    }

    /// A bar drawn at a moment of a replay (`commentbar render --at 9`) shows what a live bar
    /// would: rows that arrived more than `fade_after` and the fade ago are gone, newer ones shown.
    func testRowsAlreadyOnTheBarAreAsOldAsTheirArrival() throws {
        let bench = LookBench(try lookSettings(#"{"fade_after":2,"bg_opacity":0,"show_avatar":false}"#))
        var old = row("old", "Early", "said at one second")
        old.arrivedAt = t0 - 8
        var fading = row("fading", "Middle", "said two and a quarter seconds ago")
        fading.arrivedAt = t0 - 2.25
        var recent = row("recent", "Late", "said at eight seconds")
        recent.arrivedAt = t0 - 1
        for line in [old, fading, recent] { bench.add(line) }
        XCTAssertTrue(bench.render(at: t0))
        XCTAssertNil(bench.elements["row old"], "faded out long before")
        let middle = bench.maxAlpha(in: try XCTUnwrap(bench.elements["row fading"]))
        XCTAssertTrue(middle > 0 && middle < 255, "half way through its fade: alpha \(middle)")
        XCTAssertEqual(bench.maxAlpha(in: try XCTUnwrap(bench.elements["row recent"])), 255)
    }

    func testRowsEnterWithinAQuarterSecondAndEndAsARedrawWouldDrawThem() throws {
        for enter in ["fade", "slide"] {
            let settings = try lookSettings(#"{"enter":"\#(enter)","bg_opacity":0,"show_avatar":false}"#)
            let bench = LookBench(settings)
            bench.add(row("old", "Earlier", "there before"))
            bench.render(at: t0)
            XCTAssertNil(bench.renderer.nextChange(after: t0), "\(enter): rows there at the start do not enter")
            bench.add(row("new", "Newer", "coming in"))
            bench.render(at: t0 + 1)
            bench.render(at: t0 + 1.05)
            let rect = try XCTUnwrap(bench.elements["row new"])
            let partway = bench.frame
            XCTAssertEqual(try XCTUnwrap(bench.renderer.nextChange(after: t0 + 1.05)), t0 + 1.05 + 1.0 / 30, accuracy: 1e-6,
                           "\(enter): the next frame is due while it moves")
            XCTAssertTrue(bench.render(at: t0 + 1.3), "\(enter): its last step")
            XCTAssertNotEqual(partway, bench.frame, "\(enter): it moved")
            XCTAssertEqual(bench.maxAlpha(in: rect), 255)
            let fresh = LookBench(settings)
            fresh.state = bench.state
            fresh.render(at: t0 + 1.3)
            XCTAssert(bench.frame == fresh.frame, "\(enter): at rest, the frame is a full redraw's")
            XCTAssertFalse(bench.render(at: t0 + 1.5), "\(enter): no frame once it is in")
            XCTAssertNil(bench.renderer.nextChange(after: t0 + 1.5))
        }
    }

    /// The ticker: comments move left frame by frame, never overlap, none is skipped while the
    /// queue is short, and once all have left nothing moves.
    func testTickerCommentsTravelLeftOneAfterAnother() throws {
        let bench = LookBench(try lookSettings(#"{"layout":"ticker","ticker_speed":200}"#, width: 1280, height: 72))
        bench.render(at: t0)
        var firstX: [String: Int] = [:]
        var moved: Set<String> = []
        var time = t0
        for frame in 0..<(30 * 60) {
            time = t0 + Double(frame) / 30
            if frame % 15 == 0, frame / 15 < 12 {
                bench.add(row("c\(frame / 15)", "viewer\(frame / 15)", "comment \(frame / 15) " + String(repeating: "と", count: frame % 7)))
            }
            bench.render(at: time)
            let lane = bench.renderer.lastLane ?? []
            for (a, b) in zip(lane, lane.dropFirst()) {
                XCTAssertLessThanOrEqual(a.x + a.image.image.width, b.x, "\(a.id) and \(b.id) overlap at frame \(frame)")
            }
            for item in lane {
                if let x = firstX[item.id] {
                    if item.x < x { moved.insert(item.id) }
                } else {
                    firstX[item.id] = item.x
                }
            }
        }
        XCTAssertEqual(Set(firstX.keys), Set((0..<12).map { "c\($0)" }), "every comment showed")
        XCTAssertEqual(moved, Set(firstX.keys), "each moved left")
        XCTAssertNil(bench.renderer.nextChange(after: time), "all have left: nothing moves")
        XCTAssertFalse(bench.render(at: time + 1))
        let elements = bench.renderer.drawnElements.map(\.name)
        XCTAssertFalse(elements.contains { $0.hasPrefix("ticker ") }, "\(elements)")
    }

    /// A flood: the ticker keeps at most `maxWaiting` waiting and drops the oldest waiting first.
    func testAFloodedTickerCatchesUp() throws {
        let bench = LookBench(try lookSettings(#"{"layout":"ticker"}"#, width: 640, height: 72))
        bench.render(at: t0)
        for index in 0..<100 { bench.add(row("f\(index)", "v", "flood \(index)")) }
        bench.render(at: t0 + 0.1)
        let waiting = bench.renderer.ticker?.entries.filter { $0.entered == nil }.count ?? -1
        XCTAssertLessThanOrEqual(waiting, TickerLane.maxWaiting)
        XCTAssertEqual(bench.renderer.ticker?.entries.last?.id, "f99", "the newest is kept")
    }
}
