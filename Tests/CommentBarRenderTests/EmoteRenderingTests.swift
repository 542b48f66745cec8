// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import Foundation
import XCTest

/// Emotes drawn inline like glyphs: decoded off the render path into `EmoteImages`,
/// laid out with the text, wrapped with it, animated in their own rectangles.
final class EmoteRenderingTests: XCTestCase {
    private func file(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("Emotes/\(name)")
        return Array(try Data(contentsOf: url))
    }

    private func art(_ name: String) throws -> EmoteArt {
        try ImageLoader.emoteArt(bytes: try file(name), name: name, height: EmoteImages.decodeHeight)
    }

    private func emote(_ text: String, _ word: String, _ url: String, from: Int = 0) -> Emote? {
        let scalars = Array(text.unicodeScalars)
        let wordScalars = Array(word.unicodeScalars)
        for start in from...(scalars.count - wordScalars.count) where Array(scalars[start..<start + wordScalars.count]) == wordScalars {
            return Emote(range: start..<start + wordScalars.count, name: word, url: url)
        }
        return nil
    }

    func testDecodingStillAnimatedAndRefusedPictures() throws {
        XCTAssertFalse(try art("still.png").isAnimated)
        let gif = try art("party.gif")
        XCTAssertEqual(gif.frames.count, 4)
        XCTAssertEqual(gif.duration, 0.4, accuracy: 0.001)
        XCTAssertEqual(gif.frameIndex(at: 0.05), 0)
        XCTAssertEqual(gif.frameIndex(at: 0.25), 2)
        XCTAssertEqual(gif.frameIndex(at: 1.55), 3, "the animation loops")
        let webp = try art("party.webp")
        XCTAssertEqual(webp.frames.count, 4, "animated WebP through Debian's webp-pixbuf-loader")
        XCTAssertEqual(try art("wide.png").width, 168, "a picture under 64 px tall is not enlarged")
        XCTAssertThrowsError(try art("too-large.png"), "over 512x512")
        XCTAssertThrowsError(try art("truncated.png"))
        XCTAssertThrowsError(try ImageLoader.emoteArt(bytes: Array("<html>".utf8), name: "x", height: 64))
        let frames = try ImageLoader.emoteArt(bytes: try file("party.gif"), name: "gif", height: 64, maxFrames: 2)
        XCTAssertEqual(frames.frames.count, 2, "at most maxFrames frames")
    }

    private func store() throws -> EmoteImages {
        let images = EmoteImages()
        for (url, name) in [("https://e/still.png", "still.png"), ("https://e/wide.png", "wide.png"),
                            ("https://e/party.gif", "party.gif"), ("https://e/party.webp", "party.webp")] {
            XCTAssertTrue(images.begin(url))
            images.finish(url, .ready(try art(name)))
        }
        XCTAssertTrue(images.begin("https://e/broken.png"))
        images.finish("https://e/broken.png", .failed)
        _ = images.begin("https://e/slow.png")  // never arrives
        return images
    }

    private func rows() -> BarState {
        var state = BarState()
        state.status = .live
        func add(_ id: String, _ user: String, _ text: String, _ words: [(String, String)], badges: [String] = []) {
            var emotes: [Emote] = []
            var from = 0
            for (word, url) in words {
                if let found = emote(text, word, url, from: from) { emotes.append(found); from = found.range.upperBound }
            }
            state.apply(.comment(ChatLine(id: id, user: user, text: text, badges: badges, emotes: emotes)))
        }
        add("1", "Streamer", "Kappa こんにちは Kappa", [("Kappa", "https://e/still.png"), ("Kappa", "https://e/still.png")],
            badges: ["broadcaster/1", "subscriber/12"])
        add("2", "Mod", "wide one catJAM and broken NotHere and slow Wait", [("catJAM", "https://e/wide.png"),
            ("NotHere", "https://e/broken.png"), ("Wait", "https://e/slow.png")], badges: ["moderator/1", "vip/1"])
        add("3", "さくら", "パーティー PartyGif PartyWebp 日本語のとても長いコメントが折り返しても絵文字はテキストと一緒に流れます PartyGif",
            [("PartyGif", "https://e/party.gif"), ("PartyWebp", "https://e/party.webp"), ("PartyGif", "https://e/party.gif")],
            badges: ["founder/0", "verified/1", "member"])
        return state
    }

    func testRowsWithEmotesBadgesWrappingAndCJKGolden() throws {
        var settings = BarSettings()
        settings.animateEmotes = false
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: settings, width: 1280, height: 360, emotes: try store())
        renderer.render(rows(), now: 1_700_000_000, into: pool)
        try assertMatchesGolden(try XCTUnwrap(pool.newestFrame), named: "emotes-badges-1280x360.png")
    }

    func testAnimationRedrawsOnlyItsRectanglesAndStaysFreeWhenStill() throws {
        let images = try store()
        let state = rows()
        let pool = MemoryFramePool(width: 1280, height: 360)
        let renderer = BarRenderer(settings: BarSettings(), width: 1280, height: 360, emotes: images)
        let start = 1_700_000_000.05  // midway between frame changes, away from rounding at a boundary
        for step in 0..<6 { renderer.render(state, now: start + Double(step) * 0.1, into: pool) }
        XCTAssertEqual(renderer.lastWork.kind, .copied)
        XCTAssertLessThan(renderer.lastWork.bytesCaughtUp, 1280 * 360 * 4 / 10, "a frame change touches its emotes only")
        // Every path gives the pixels of a full redraw of the same moment.
        let fresh = BarRenderer(settings: BarSettings(), width: 1280, height: 360, emotes: images)
        let freshPool = MemoryFramePool(width: 1280, height: 360)
        fresh.render(state, now: start + 0.5, into: freshPool)
        XCTAssert(bytes(pool.newestFrame!) == bytes(freshPool.newestFrame!))
        XCTAssertFalse(renderer.render(state, now: start + 0.51, into: pool), "the same frame of every emote: no frame")
        XCTAssertEqual(try XCTUnwrap(renderer.nextChange(after: start + 0.51)), start + 0.61, accuracy: 1e-9,
                       "the renderer says when the loop comes round for the emotes' next step")

        var still = BarSettings()
        still.animateEmotes = false
        renderer.update(settings: still)
        renderer.render(state, now: start + 1, into: pool)
        XCTAssertFalse(renderer.render(state, now: start + 1.1, into: pool), "animation off: nothing moves")
        XCTAssertNil(renderer.nextChange(after: start + 1.1), "and nothing is due")
    }

    func testAnArrivingPictureRedrawsItsRowInPlace() throws {
        let images = EmoteImages()
        _ = images.begin("https://e/still.png")
        var state = BarState()
        state.apply(.comment(ChatLine(id: "a", user: "u", text: "above")))
        state.apply(.comment(ChatLine(id: "b", user: "u", text: "Kappa arrives",
                                      emotes: [Emote(range: 0..<5, name: "Kappa", url: "https://e/still.png")])))
        state.apply(.comment(ChatLine(id: "c", user: "u", text: "below")))
        let pool = MemoryFramePool(width: 640, height: 200)
        let renderer = BarRenderer(settings: BarSettings(), width: 640, height: 200, emotes: images)
        renderer.render(state, now: 0, into: pool)
        let before = bytes(pool.newestFrame!)
        XCTAssertFalse(renderer.render(state, now: 0.2, into: pool))
        images.finish("https://e/still.png", .ready(try art("still.png")))
        XCTAssertTrue(renderer.render(state, now: 0.2, into: pool), "the picture arrived: the row is drawn again")
        XCTAssertEqual(renderer.lastWork.linesLaidOut, 1, "only that row is laid out again")
        XCTAssertNotEqual(before, bytes(pool.newestFrame!))
        let fresh = MemoryFramePool(width: 640, height: 200)
        BarRenderer(settings: BarSettings(), width: 640, height: 200, emotes: images).render(state, now: 0.2, into: fresh)
        XCTAssert(bytes(pool.newestFrame!) == bytes(fresh.newestFrame!))
    }

    /// A row can reach a frame before the frame loop asked for its pictures (it arrived while the
    /// frame waited for its turn): it shows text, and is drawn again when the picture comes.
    func testARowDrawnBeforeItsPictureWasAskedForGetsItLater() throws {
        let images = EmoteImages()
        var state = BarState()
        state.apply(.comment(ChatLine(id: "b", user: "u", text: "Kappa early",
                                      emotes: [Emote(range: 0..<5, name: "Kappa", url: "https://e/still.png")])))
        let pool = MemoryFramePool(width: 640, height: 200)
        let renderer = BarRenderer(settings: BarSettings(), width: 640, height: 200, emotes: images)
        renderer.render(state, now: 0, into: pool)
        XCTAssertTrue(images.begin("https://e/still.png"), "asked for only after the first frame")
        images.finish("https://e/still.png", .ready(try art("still.png")))
        XCTAssertTrue(renderer.render(state, now: 0.2, into: pool), "the picture arrived: the row is drawn again")
        let fresh = MemoryFramePool(width: 640, height: 200)
        BarRenderer(settings: BarSettings(), width: 640, height: 200, emotes: images).render(state, now: 0.2, into: fresh)
        XCTAssert(bytes(pool.newestFrame!) == bytes(fresh.newestFrame!), "the same frame as a bar that had the picture")
    }

    func testTheMemoryCacheIsBounded() throws {
        let images = EmoteImages()
        let party = try art("party.gif")
        let perArt = party.bytes
        let count = EmoteImages.maxBytes / perArt + 20
        for index in 0..<count {
            _ = images.begin("https://e/\(index)")
            images.finish("https://e/\(index)", .ready(party))
        }
        XCTAssertLessThanOrEqual(images.totalBytes, EmoteImages.maxBytes)
        guard case .ready? = images.state(of: "https://e/\(count - 1)") else { return XCTFail("the newest is kept") }
        XCTAssertNil(images.state(of: "https://e/0"), "the least recently used went first")
    }
}

final class EmoteStoreBoundsTests: XCTestCase {
    func testFailedPicturesDoNotGrowTheTableWithoutBound() {
        let images = EmoteImages()
        for index in 0..<(EmoteImages.maxEntries + 500) {
            _ = images.begin("https://e/bad\(index)")
            images.finish("https://e/bad\(index)", .failed)
        }
        XCTAssertNil(images.state(of: "https://e/bad0"), "the oldest failures went")
        guard case .failed? = images.state(of: "https://e/bad\(EmoteImages.maxEntries + 499)") else {
            return XCTFail("the newest failure is kept")
        }
    }
}
