// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import Foundation
import XCTest

/// An emote still loading when its comment is pinned: the strip shows the emote's text, and is
/// drawn again with the picture once it arrives (issue 30).
final class PinStripPictureTests: XCTestCase {
    let width = 640, height = 200

    private func art(_ name: String) throws -> EmoteArt {
        let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("Emotes/\(name)")
        return try ImageLoader.emoteArt(bytes: Array(try Data(contentsOf: url)), name: name, height: EmoteImages.decodeHeight)
    }

    private func bytes(_ frame: FrameBuffer) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: frame.pixels, count: frame.stride * frame.height))
    }

    func testAPictureArrivingRedrawsThePinnedStrip() throws {
        let images = EmoteImages()
        let url = "https://e/still.png"
        _ = images.begin(url)
        var state = BarState()
        state.apply(.comment(ChatLine(id: "a", user: "u", text: "first row")))
        let pinned = ChatLine(id: "p", user: "u", text: "Kappa pinned", emotes: [Emote(range: 0..<5, name: "Kappa", url: url)])
        state.apply(.comment(pinned))
        state.pin(pinned, until: nil)
        // The pinned row scrolls away: only the strip still shows the emote.
        for index in 0..<12 { state.apply(.comment(ChatLine(id: "n\(index)", user: "u", text: "row \(index)"))) }
        let pool = MemoryFramePool(width: width, height: height)
        let renderer = BarRenderer(settings: BarSettings(), width: width, height: height, emotes: images)
        XCTAssertTrue(renderer.render(state, now: 0, into: pool))
        let loading = bytes(try XCTUnwrap(pool.newestFrame))
        XCTAssertFalse(renderer.render(state, now: 0.2, into: pool), "nothing changed")
        images.finish(url, .ready(try art("still.png")))
        XCTAssertTrue(renderer.render(state, now: 0.2, into: pool), "the picture arrived: the strip is drawn again")
        let arrived = bytes(try XCTUnwrap(pool.newestFrame))
        XCTAssertTrue(loading != arrived, "the strip shows the picture now")
        let fresh = MemoryFramePool(width: width, height: height)
        BarRenderer(settings: BarSettings(), width: width, height: height, emotes: images).render(state, now: 0.2, into: fresh)
        XCTAssert(arrived == bytes(try XCTUnwrap(fresh.newestFrame)), "as a bar that had the picture from the start draws it")
    }
}
