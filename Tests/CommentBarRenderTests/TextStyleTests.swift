// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

final class TextStyleTests: XCTestCase {
    private func style(_ change: (inout BarSettings) -> Void = { _ in }) -> TextStyle {
        var settings = BarSettings()
        change(&settings)
        settings = settings.clamped()
        return TextStyle(settings: settings, layout: BarLayout(settings: settings, width: 1280, height: 360))
    }

    func testSettingsOfTheBarAroundTheTextLeaveItEqual() {
        let base = style()
        XCTAssertEqual(style { $0.backgroundOpacity = 20 }, base)
        XCTAssertEqual(style { $0.showClock.toggle() }, base)
        XCTAssertEqual(style { $0.showViewers.toggle() }, base)
        XCTAssertEqual(style { $0.showGifts.toggle() }, base)
        XCTAssertEqual(style { $0.micMeter.toggle() }, base)
        XCTAssertEqual(style { $0.cornerRadius = 3 }, base)
        XCTAssertEqual(style { $0.maxLines = 40 }, base, "a comment wraps to at most three lines either way")
    }

    func testSettingsThatShapeTheTextChangeIt() {
        let base = style()
        XCTAssertNotEqual(style { $0.font.size += 4 }, base)
        XCTAssertNotEqual(style { $0.font.face = "Serif" }, base)
        XCTAssertNotEqual(style { $0.font.flags = 1 }, base)
        XCTAssertNotEqual(style { $0.font.flags = 2 }, base)
        XCTAssertNotEqual(style { $0.textColor = 0xFF00_FF00 }, base)
        XCTAssertNotEqual(style { $0.maxLines = 1 }, base)
        XCTAssertNotEqual(style { $0.showBadges.toggle() }, base)
        XCTAssertNotEqual(style { $0.animateEmotes.toggle() }, base)
        XCTAssertNotEqual(style { $0.showAvatar.toggle() }, base, "the comment area's width")
        XCTAssertNotEqual(style { $0.backgroundColor = 0xFF10_2030 }, base,
                          "names and messages keep their contrast against the bar's colour (issue 38)")
        XCTAssertNotEqual(style { $0.textOutline = 2 }, base)
        XCTAssertNotEqual(style { $0.rowStyle = .bubble }, base)
        XCTAssertNotEqual(style { $0.nameColors = .role }, base)
    }

    func testASettingOutsideTheTextLaysOutNoRow() {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        var settings = BarSettings()
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        settings.showClock = false
        settings.micMeter = true
        renderer.update(settings: settings)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 0)
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings))
        settings.textColor = 0xFF80_FF80
        renderer.update(settings: settings)
        XCTAssertTrue(renderer.render(state, now: now, into: pool))
        XCTAssertGreaterThan(renderer.lastWork.linesLaidOut, 0)
        XCTAssert(bytes(pool.newestFrame!) == renderFromNothing(state, now: now, settings: settings))
    }
}
