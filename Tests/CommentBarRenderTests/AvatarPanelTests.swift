// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import CommentBarFeeds
import CommentBarFrames
import DemoPlatform
@testable import CommentBarRender
import Foundation
import XCTest

/// The avatar panel is drawn once and copied into the stable layer: the copy gives the pixels
/// drawing it there would, it is kept across the layer's redraws, and it is drawn again whenever
/// one of its inputs (size, colours, corners, pictures) changes.
final class AvatarPanelTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("commentbar-panel-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A PNG of a bar rendered at `width`×`height` with `color` as its background: a picture
    /// that differs from the others by colour.
    private func picture(_ name: String, color: UInt32) throws -> String {
        var settings = BarSettings()
        settings.backgroundColor = color
        settings.backgroundOpacity = 100
        let pool = MemoryFramePool(width: 120, height: 90)
        BarRenderer(settings: settings, width: 120, height: 90).render(BarState(), now: 0, into: pool)
        let path = directory.appendingPathComponent(name).path
        try PNGFile.write(try XCTUnwrap(pool.newestFrame), to: path)
        return path
    }

    /// The panel copied from its image equals the panel drawn straight into the layer, at the
    /// same place, byte for byte: with the default art, with pictures, on a bar whose round
    /// corner reaches into the panel.
    func testTheCopyIsThePanelDrawnInPlace() throws {
        let images = ImageCache()
        let avatar = try XCTUnwrap(images.image(.file(path: try picture("a.png", color: 0xFF20_40E0)), coverSide: 96))
        let background = try XCTUnwrap(images.image(.file(path: try picture("b.png", color: 0xFFE0_8020)), coverSide: 330))
        let cases: [(PixelRect, Double, ImageSurface?, ImageSurface?)] = [
            (PixelRect(x: 13, y: 13, width: 281, height: 334), 12, nil, nil),
            (PixelRect(x: 7, y: 9, width: 150, height: 182), 40, background, avatar),
            (PixelRect(x: 6, y: 6, width: 24, height: 30), 30, nil, avatar),
        ]
        for (panel, barRadius, background, avatar) in cases {
            let key = AvatarPanel.Key(panel: panel, panelRadius: 8, barWidth: 640, barHeight: 360, barRadius: barRadius,
                                      barColor: RGBA(0.1, 0.12, 0.2, 0.8), background: background, avatar: avatar)
            let copied = ImageSurface(width: 640, height: 360)
            let drawn = ImageSurface(width: 640, height: 360)
            for surface in [copied, drawn] {
                surface.withContext { cr in
                    key.barColor.setSource(cr)
                    Icons.roundedRect(cr, 0, 0, 640, 360, barRadius)
                    cairo_fill(cr)
                    if surface === copied {
                        AvatarPanel().copy(key, into: cr)
                    } else {
                        AvatarPanel.draw(key, on: cr)
                    }
                }
            }
            XCTAssertEqual(pixels(copied), pixels(drawn), "panel \(panel)")
        }
    }

    /// Counters, status and the mic change the stable layer, not the panel: it is drawn once,
    /// also across a redraw from nothing (`invalidateCaches`), and every frame is still the frame
    /// a new renderer makes.
    func testThePanelIsDrawnOnceWhileOnlyTheLayerChanges() {
        let (start, now) = DemoScript.timeline.state(at: 20)
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360)
        var state = start
        var obs = OBSLiveState()
        for step in 0..<4 {
            state.viewers = 100 + step
            obs.mic = step % 2 == 0 ? .on : .muted
            if step == 3 { renderer.invalidateCaches() }
            XCTAssertTrue(renderer.render(state, obs: obs, now: now, into: pool))
            XCTAssertTrue(renderer.lastWork.stableRedrawn)
            XCTAssertEqual(bytes(pool.newestFrame!), renderFromNothing(state, obs: obs, now: now), "step \(step)")
        }
        XCTAssertEqual(renderer.avatarPanelDraws, 1)
    }

    /// Each input of the panel, changed alone, draws it again: the frame is the one a new
    /// renderer makes with the new settings, and not the frame before.
    func testThePanelIsDrawnAgainWhenItsInputsChange() throws {
        let (state, now) = DemoScript.timeline.state(at: 20)
        let first = try picture("first.png", color: 0xFF30_C030)
        let second = try picture("second.png", color: 0xFFC0_30C0)
        let changes: [(String, (inout BarSettings) -> Void)] = [
            ("background colour", { $0.backgroundColor = 0xFF40_2010 }),
            ("background opacity", { $0.backgroundOpacity = 35 }),
            ("bar corners", { $0.cornerRadius = 120 }),
            ("panel size (font size)", { $0.font.size = 30 }),
            ("avatar picture", { $0.avatarPath = first }),
            ("another avatar picture", { $0.avatarPath = second }),
            ("background picture", { $0.backgroundPath = first }),
            ("another background picture", { $0.backgroundPath = second }),
        ]
        let pool = MemoryFramePool(width: 1280, height: 360)
        var settings = BarSettings()
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360)
        renderer.render(state, now: now, into: pool)
        var before = bytes(try XCTUnwrap(pool.newestFrame))
        for (index, (name, change)) in changes.enumerated() {
            change(&settings)
            renderer.update(settings: settings)
            XCTAssertTrue(renderer.render(state, now: now, into: pool), name)
            let frame = bytes(try XCTUnwrap(pool.newestFrame))
            XCTAssertNil(renderer.notice, name)
            XCTAssertEqual(renderer.avatarPanelDraws, index + 2, name)
            XCTAssertNotEqual(frame, before, name)
            XCTAssert(frame == renderFromNothing(state, now: now, settings: settings), "\(name): not a full redraw's frame")
            before = frame
        }
    }

    private func pixels(_ image: ImageSurface) -> [UInt8] {
        guard let data = image.data() else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: image.stride * image.height))
    }
}
