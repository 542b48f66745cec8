// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

/// The demo stream at fixed times, against committed images (a small tolerance
/// for PNG's straight alpha). Regenerate after a deliberate change with
/// `UPDATE_GOLDEN=1 swift test --filter GoldenImageTests` and look at the images.
final class GoldenImageTests: XCTestCase {
    func testDemoAtFixedTimes() throws {
        for (time, width, height) in [(5.0, 1280, 360), (20.0, 1280, 360), (45.0, 1280, 360), (20.0, 640, 200)] {
            let (state, now) = DemoScript.timeline.state(at: time)
            var settings = BarSettings()
            settings.width = width
            settings.height = height
            let pool = MemoryFramePool(width: width, height: height)
            BarRenderer(settings: settings, width: width, height: height).render(state, now: now, into: pool)
            let frame = try XCTUnwrap(pool.newestFrame)
            try assertMatchesGolden(frame, named: "demo-\(Int(time))s-\(width)x\(height).png")
        }
    }

    func testThemeWithoutAvatarAndTransparentBackground() throws {
        var settings = BarSettings()
        settings.showAvatar = false
        settings.backgroundOpacity = 0
        settings.textColor = 0xFF80_FFFF
        settings.maxLines = 3
        let (state, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 200)
        BarRenderer(settings: settings, width: 1280, height: 200).render(state, now: now, into: pool)
        try assertMatchesGolden(try XCTUnwrap(pool.newestFrame), named: "theme-no-avatar-1280x200.png")
    }
}
