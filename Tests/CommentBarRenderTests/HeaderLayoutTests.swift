// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarRender
import XCTest

final class HeaderLayoutTests: XCTestCase {
    private func header(showAvatar: Bool = true, showMic: Bool = true, micMeter: Bool = false,
                        width: Int = 1280, height: Int = 360) -> HeaderLayout {
        var settings = BarSettings()
        settings.showAvatar = showAvatar
        settings.showMic = showMic
        settings.micMeter = micMeter
        return BarLayout(settings: settings, width: width, height: height).header
    }

    func testTheMicIsInTheHeaderOnlyWithoutTheAvatarPanel() {
        XCTAssertNil(header(showAvatar: true).micIcon, "the avatar panel carries the mic as a badge")
        let bare = header(showAvatar: false)
        let mic = bare.micIcon
        XCTAssertEqual(mic.map { $0.x + $0.side }, Double(bare.row.maxX), "at the right end")
        XCTAssertEqual(mic.map { $0.y + $0.side / 2 }, bare.centerY)
        XCTAssertEqual(bare.countersMaxX, bare.row.maxX - Int(bare.iconSize) - bare.gap)
        XCTAssertNil(header(showAvatar: false, showMic: false).micIcon)
    }

    func testTheMeterHasItsPlaceOnlyWhenItAndTheMicAreOn() {
        XCTAssertNil(header(micMeter: false).meter)
        XCTAssertNil(header(showMic: false, micMeter: true).meter)
        let withPanel = header(micMeter: true)
        let meter = withPanel.meter ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        XCTAssertEqual(meter.maxX, withPanel.row.maxX, "nothing right of it when the avatar carries the mic")
        XCTAssertEqual(withPanel.countersMaxX, meter.x - withPanel.gap)
        XCTAssertLessThanOrEqual(abs(Double(meter.y) + Double(meter.height) / 2 - withPanel.centerY), 1, "centred")
        XCTAssertGreaterThanOrEqual(meter.y, withPanel.row.y)
        XCTAssertLessThanOrEqual(meter.maxY, withPanel.row.maxY)

        let bare = header(showAvatar: false, micMeter: true)
        let bareMeter = bare.meter ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        XCTAssertEqual(bareMeter.maxX, bare.row.maxX - Int(bare.iconSize) - bare.gap, "left of the mic")
    }

    func testWithNothingOnTheRightTheCountersStartAtTheEdge() {
        let plain = header(showMic: false)
        XCTAssertEqual(plain.countersMaxX, plain.row.maxX)
    }

    func testItemsAreCentredOnTheRow() {
        let layout = header()
        let box = layout.centered(x: 50, width: 30, height: 20)
        XCTAssertEqual(box.x, 50)
        XCTAssertEqual(box.width, 30)
        XCTAssertLessThanOrEqual(abs(Double(box.y) + 10 - layout.centerY), 0.5)
        XCTAssertEqual(layout.top(ofHeight: 20), Double(box.y))
    }

    func testTheHeaderScalesWithTheFont() {
        var small = BarSettings()
        small.font.size = 16
        var large = small
        large.font.size = 40
        let a = BarLayout(settings: small, width: 1280, height: 360).header
        let b = BarLayout(settings: large, width: 1280, height: 360).header
        XCTAssertLessThan(a.row.height, b.row.height)
        XCTAssertLessThan(a.gap, b.gap)
        XCTAssertLessThan(a.iconSize, b.iconSize)
        XCTAssertLessThan(a.badgeHeight, b.badgeHeight)
        XCTAssertLessThan(a.chipHeight, a.badgeHeight, "the chat chip is smaller than the on-air badge")
    }

    func testAFlowTakesRoomFromBothEnds() {
        let layout = header(showAvatar: false, showMic: false)
        var flow = HeaderFlow(layout)
        XCTAssertEqual(flow.fromLeft(width: 40), layout.row.x)
        XCTAssertEqual(flow.left, layout.row.x + 40 + layout.gap)
        XCTAssertEqual(flow.fromRight(width: 30, spacing: 0), layout.row.maxX - 30)
        XCTAssertEqual(flow.fromRight(width: 20), layout.row.maxX - 50)
        XCTAssertEqual(flow.right, layout.row.maxX - 50 - layout.gap)
        XCTAssertEqual(flow.room, layout.row.width - 40 - 50 - 2 * layout.gap)
    }
}
