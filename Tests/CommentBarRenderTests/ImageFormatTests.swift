// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarNetTesting
import Foundation
import XCTest
@testable import CommentBarRender

/// Issue 19, finding 1: a feed's picture reaches only the PNG, JPEG, GIF and WebP loaders.
final class ImageFormatTests: XCTestCase {
    private func png(width: Int, height: Int) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("format-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        defer { cairo_surface_destroy(surface) }
        XCTAssertEqual(cairo_surface_write_to_png(surface, path), CAIRO_STATUS_SUCCESS)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    private static let svg = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" fill="red"/></svg>
        """.utf8)
    private static let xpm = Array("""
        /* XPM */
        static char *e[] = {
        "2 2 1 1",
        "a c #FF0000",
        "aa",
        "aa"};
        """.utf8)
    /// An uncompressed 2×2 true-colour TGA.
    private static let tga: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0]
        + Array(repeating: 0x7F, count: 2 * 2 * 3)
    /// A 1×1 32-bit ICO (one BMP image with its AND mask).
    private static let ico: [UInt8] = {
        let dib: [UInt8] = [40, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 32, 0] + Array(repeating: 0, count: 24)
            + [0, 0, 255, 255] + [0, 0, 0, 0]
        let size = UInt8(dib.count)
        return [0, 0, 1, 0, 1, 0] + [1, 1, 0, 0, 1, 0, 32, 0, size, 0, 0, 0, 22, 0, 0, 0] + dib
    }()

    func testOtherFormatsAreRefusedBeforeAnyLoaderSeesThem() throws {
        for (name, bytes) in [("svg", Self.svg), ("xpm", Self.xpm), ("tga", Self.tga), ("ico", Self.ico)] {
            XCTAssertNil(ImageFormat(sniffing: bytes), name)
            let problem = try XCTUnwrap(ImageLoader.problem(inImage: bytes, name: name), name)
            XCTAssertTrue(problem.contains(ImageFormat.refusal), problem)
            XCTAssertThrowsError(try ImageLoader.emoteArt(bytes: bytes, name: name, height: 28), name)
            XCTAssertThrowsError(try ImageLoader.load(bytes: bytes, name: name, coverSide: 28), name)
        }
    }

    func testTheFourFormatsAreToldByTheirMagicBytes() throws {
        XCTAssertEqual(ImageFormat(sniffing: try png(width: 2, height: 2)), .png)
        XCTAssertEqual(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat(sniffing: Array("GIF89a".utf8)), .gif)
        XCTAssertEqual(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertNil(ImageFormat(sniffing: Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI ".utf8)))
        XCTAssertNotNil(try ImageLoader.emoteArt(bytes: try png(width: 28, height: 28), name: "ok", height: 28))
    }

    /// Few pixels (30,000, under an emote's 262,144) but one very long side: refused from the header (an emote and an avatar alike).
    func testAVeryLongStripIsRefused() throws {
        let strip = try png(width: 30000, height: 1)
        XCTAssertThrowsError(try ImageLoader.emoteArt(bytes: strip, name: "strip", height: 28)) { error in
            XCTAssertTrue("\(error)".contains("30000x1 is too large"), "\(error)")
        }
        XCTAssertNotNil(ImageLoader.problem(inImage: strip, name: "strip"))
    }

    /// Issue 28: a progressive JPEG of ~1,000 empty scans took gdk-pixbuf 3.8–10.5 s in one slice,
    /// where no budget could look at the clock. Its scans are counted from its markers first, and it
    /// is refused at once, for an emote and for the bar's pictures alike.
    func testAJPEGOfAThousandEmptyScansIsRefusedAtOnce() throws {
        let hostile = TestJPEG.progressive(width: 1920, height: 1080, acScans: 1000)
        XCTAssertEqual(JPEGScans(hostile, limit: 2000).starts.count, 1001)
        let started = ContinuousClock.now
        XCTAssertThrowsError(try ImageLoader.load(bytes: hostile, name: "bg.jpg", coverSide: 300)) { error in
            XCTAssertEqual("\(error)", "bg.jpg: a JPEG of more than \(JPEGScans.maxScans) scans is refused (each costs a whole decode)")
        }
        XCTAssertThrowsError(try ImageLoader.emoteArt(bytes: hostile, name: "e", height: 28))
        XCTAssertNotNil(ImageLoader.problem(inImage: hostile, name: "bg.jpg"))
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1), "refused from its markers, not by the decode budget")
    }

    /// A progressive JPEG within the limit still decodes, fed in slices that each hold one scan's start.
    func testAProgressiveJPEGWithinTheLimitDecodes() throws {
        let picture = TestJPEG.progressive(width: 64, height: 48, acScans: 3)
        let scans = JPEGScans(picture)
        XCTAssertEqual(scans.starts.count, 4)
        let ends = scans.sliceEnds(count: picture.count, sliceBytes: 4096)
        XCTAssertEqual(ends.last, picture.count)
        var begin = 0
        for end in ends {
            XCTAssertLessThanOrEqual(scans.starts.filter { $0 >= begin && $0 < end }.count, 1, "one scan start a slice")
            begin = end
        }
        let image = try ImageLoader.load(bytes: picture, name: "ok.jpg", coverSide: 48)
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(image.height, 48)
    }

    /// The marker walk stops where the file stops making sense; the decoder then says why.
    func testTheMarkerWalkOfDamagedFiles() {
        XCTAssertEqual(JPEGScans([0xFF, 0xD8]).starts, [])
        XCTAssertEqual(JPEGScans([0xFF, 0xD8, 0xFF, 0xDA]).starts, [])
        XCTAssertEqual(JPEGScans([0xFF, 0xD8, 0x00, 0xFF, 0xDA, 0x00, 0x02]).starts, [])
        XCTAssertEqual(JPEGScans([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0x00, 0xFF, 0xD0, 0xFF, 0xDA, 0x00, 0x02]).starts, [2, 10],
                       "stuffed bytes and restart markers are data; the next SOS is a scan")
    }
}
