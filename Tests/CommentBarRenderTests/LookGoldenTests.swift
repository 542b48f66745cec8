// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import XCTest

/// The looks (issue 38) against committed images: each built-in theme and each layout at two
/// sizes, the demo 20 s in. Regenerate after a deliberate change with
/// `UPDATE_GOLDEN=1 swift test --filter LookGoldenTests` and look at the images.
final class LookGoldenTests: XCTestCase {
    func testEachThemeAndLayoutAtTwoSizes() throws {
        let cases: [(name: String, json: String, sizes: [(Int, Int)])] = [
            ("theme-mirrativ", #"{"theme":"mirrativ"}"#, [(1280, 360), (480, 900)]),
            ("theme-light", #"{"theme":"light"}"#, [(1280, 360), (640, 200)]),
            ("theme-box-outline", #"{"theme":"box-outline"}"#, [(480, 900), (1280, 360)]),
            ("theme-ticker", #"{"theme":"ticker"}"#, [(1280, 72), (640, 120)]),
            ("layout-box", #"{"layout":"box"}"#, [(480, 900), (1280, 360)]),
            ("layout-ticker", #"{"layout":"ticker"}"#, [(1280, 72), (320, 120)]),
            ("bubbles-newest-top", #"{"row_style":"bubble","newest":"top","name_colors":"role"}"#, [(1280, 360), (480, 900)]),
        ]
        let (state, now) = DemoScript.timeline.state(at: 20)
        for (name, json, sizes) in cases {
            for (width, height) in sizes {
                let settings = try lookSettings(json, width: width, height: height)
                let pool = MemoryFramePool(width: width, height: height)
                BarRenderer(settings: settings, width: width, height: height).render(state, now: now, into: pool)
                try assertMatchesGolden(try XCTUnwrap(pool.newestFrame), named: "\(name)-\(width)x\(height).png")
            }
        }
    }

    /// Outlined text over nothing (bg_opacity 0): dark, opaque pixels around the white glyphs;
    /// none without the outline (a white glyph's soft edge is translucent white, never dark).
    func testAnOutlineDrawsDarkPixelsAroundTheGlyphs() throws {
        func darkOpaque(outline: Int) throws -> Int {
            let settings = try lookSettings(
                #"{"bg_opacity":0,"show_avatar":false,"text_outline":\#(outline),"text_color":4294967295}"#,
                width: 640, height: 200)
            let bench = LookBench(settings)
            bench.add(row("a", "Outline", "WWWW MMMM 見える？", color: "#ffffff"))
            bench.render(at: 1000)
            let frame = try XCTUnwrap(bench.pool.newestFrame)
            let area = try XCTUnwrap(bench.elements["row a"])
            var count = 0
            for y in area.y..<area.maxY {
                for x in area.x..<area.maxX {
                    let p = frame.pixels + y * frame.stride + x * 4
                    let (b, g, r, a) = (p.load(as: UInt8.self), p.load(fromByteOffset: 1, as: UInt8.self),
                                        p.load(fromByteOffset: 2, as: UInt8.self), p.load(fromByteOffset: 3, as: UInt8.self))
                    if a > 200 && r < 50 && g < 50 && b < 50 { count += 1 }
                }
            }
            return count
        }
        XCTAssertGreaterThan(try darkOpaque(outline: 3), 500)
        XCTAssertEqual(try darkOpaque(outline: 0), 0)
    }
}
