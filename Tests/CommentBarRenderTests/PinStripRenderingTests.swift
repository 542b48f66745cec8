// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import XCTest

/// The pinned comment's strip at the top of the comment area (issue 30).
final class PinStripRenderingTests: XCTestCase {
    let width = 900, height = 300
    let now = 1_700_000_000.0
    static let blue = RGBColor(hex: "#4fc3f7")
    var settings: BarSettings {
        var settings = BarSettings()
        settings.showClock = false
        return settings
    }

    func state(comments: Int, from first: Int = 0) -> BarState {
        var state = BarState()
        state.apply(.status(.live))
        for index in first..<(first + comments) {
            // Blue names: nothing of a row is the strip's amber.
            state.apply(.comment(ChatLine(id: "c\(index)", user: "viewer\(index % 4)", text: "comment number \(index)",
                                          color: Self.blue)))
        }
        return state
    }

    /// The strip's rows: the top of the comment area, a few pixels tall.
    var stripProbe: PixelRect {
        let area = BarLayout(settings: settings.clamped(), width: width, height: height).comments
        return PixelRect(x: area.x, y: area.y, width: area.width, height: 12)
    }

    /// Pixels in `rect` of the frame that are the strip's amber (its border and tinted fill).
    func amberPixels(_ frame: FrameBuffer, in rect: PixelRect) -> Int {
        var count = 0
        for row in rect.y..<rect.maxY {
            for column in rect.x..<rect.maxX {
                let pixel = frame.pixels.load(fromByteOffset: row * frame.stride + column * 4, as: UInt32.self)
                let red = Int((pixel >> 16) & 0xFF), green = Int((pixel >> 8) & 0xFF), blue = Int(pixel & 0xFF)
                if red > 90 && red > green + 20 && green > blue + 40 { count += 1 }
            }
        }
        return count
    }

    func region(_ frame: FrameBuffer, _ rect: PixelRect) -> [UInt8] {
        (rect.y..<rect.maxY).flatMap { row in
            Array(UnsafeRawBufferPointer(start: frame.pixels + row * frame.stride + rect.x * 4, count: rect.width * 4))
        }
    }

    func testTheStripAppearsAndStaysWhileTenMoreCommentsScroll() throws {
        var state = state(comments: 6)
        let pool = MemoryFramePool(width: width, height: height)
        let renderer = BarRenderer(settings: settings, width: width, height: height)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        let unpinned = try XCTUnwrap(pool.newestFrame)
        XCTAssertEqual(amberPixels(unpinned, in: stripProbe), 0, "no strip before a pin")

        let pinned = try XCTUnwrap(state.lines.first { $0.id == "c2" })
        state.pin(pinned, until: nil)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        let first = try XCTUnwrap(pool.newestFrame)
        XCTAssertGreaterThan(amberPixels(first, in: stripProbe), 100, "the strip is drawn at the top")
        let strip = region(first, stripProbe)
        XCTAssert(bytes(first) == renderFromNothing(state, now: now, settings: settings, width: width, height: height))

        for index in 6..<16 {
            state.apply(.comment(ChatLine(id: "c\(index)", user: "late\(index)", text: "a later comment \(index)",
                                          color: Self.blue)))
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            let frame = try XCTUnwrap(pool.newestFrame)
            XCTAssertEqual(region(frame, stripProbe), strip, "the strip moved after comment \(index)")
            XCTAssert(bytes(frame) == renderFromNothing(state, now: now, settings: settings, width: width, height: height),
                      "frame after comment \(index) differs from a full redraw")
        }
        XCTAssertEqual(renderer.lastWork.kind, .scrolled, "rows below the strip scroll")
        XCTAssertFalse(renderer.render(state, now: now + 0.5, into: pool), "nothing changed: no frame")
    }

    /// After an unpin the rows' area grows up over where the strip was: a pool slot written while
    /// the strip showed must lose it when later rows scroll into that slot, with few rows low down.
    func testRowsScrollingAfterAnUnpinLeaveNoStripInAnOlderSlot() throws {
        var state = state(comments: 2)
        let pool = MemoryFramePool(width: width, height: height)
        let renderer = BarRenderer(settings: settings, width: width, height: height)
        state.pin(try XCTUnwrap(state.lines.first), until: nil)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        for index in 2..<6 {
            state.apply(.comment(ChatLine(id: "c\(index)", user: "pinned\(index)", text: "while pinned \(index)",
                                          color: Self.blue)))
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
        }
        XCTAssertTrue(state.unpin())
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        for index in 6..<10 {
            state.apply(.comment(ChatLine(id: "c\(index)", user: "after\(index)", text: "after the unpin \(index)",
                                          color: Self.blue)))
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            let frame = try XCTUnwrap(pool.newestFrame)
            XCTAssertEqual(amberPixels(frame, in: stripProbe), 0, "the strip came back with comment \(index)")
            XCTAssert(bytes(frame) == renderFromNothing(state, now: now, settings: settings, width: width, height: height),
                      "frame after comment \(index) differs from a full redraw")
        }
    }

    func testTheStripGoesOnUnpinDeleteAndTimeUp() throws {
        for way in ["unpin", "delete", "ban", "time"] {
            var state = state(comments: 8)
            let pool = MemoryFramePool(width: width, height: height)
            let renderer = BarRenderer(settings: settings, width: width, height: height)
            let pinned = try XCTUnwrap(state.lines.first { $0.id == "c5" })
            state.pin(pinned, until: way == "time" ? now + 30 : nil)
            XCTAssertTrue(renderer.render(state, now: now, into: pool))
            XCTAssertGreaterThan(amberPixels(try XCTUnwrap(pool.newestFrame), in: stripProbe), 100, way)
            var later = now + 1
            switch way {
            case "unpin": XCTAssertTrue(state.unpin(id: "c5"))
            case "delete": state.apply(.delete(id: "c5"))
            case "ban": state.apply(.deleteUser(user: pinned.user))
            default: later = now + 30
            }
            if way != "time" { XCTAssertNil(state.pinned, way) }
            // Past its time the pin is not drawn, even before the session takes it away.
            XCTAssertTrue(renderer.render(state, now: later, into: pool), way)
            let frame = try XCTUnwrap(pool.newestFrame)
            XCTAssertEqual(amberPixels(frame, in: stripProbe), 0, "the strip is still there after \(way)")
            XCTAssert(bytes(frame) == renderFromNothing(state, now: later, settings: settings, width: width, height: height))
            XCTAssertFalse(renderer.render(state, now: later, into: pool), "\(way): nothing changed since")
        }
    }

    func testAnUnpinnedStateTakesItsTimeAway() {
        var state = state(comments: 2)
        state.pin(state.lines[0], until: now + 10)
        XCTAssertFalse(state.expirePin(now: now + 9))
        XCTAssertNotNil(state.pinned)
        XCTAssertTrue(state.expirePin(now: now + 10))
        XCTAssertNil(state.pinned)
        state.pin(state.lines[1], until: nil)
        XCTAssertFalse(state.expirePin(now: .greatestFiniteMagnitude))
        state.apply(.clear)
        XCTAssertNil(state.pinned, "a cleared chat has no pin")
    }

    func testAPinnedRowKeepsItsPlaceWhenItScrollsOutOfTheKeptLines() {
        var state = state(comments: 3)
        state.pin(state.lines[0], until: nil)
        for index in 3..<(BarState.retainedLines + 10) {
            state.apply(.comment(ChatLine(id: "c\(index)", user: "u", text: "\(index)")))
        }
        XCTAssertFalse(state.lines.contains { $0.id == "c0" })
        XCTAssertEqual(state.pinned?.line.id, "c0", "a pin outlives its row's place in the list")
    }
}
