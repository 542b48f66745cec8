// SPDX-License-Identifier: GPL-2.0-or-later
import CCairo
import CommentBarCore
import Foundation
import Synchronization
import XCTest
@testable import CommentBarRender

final class RemoteImageTests: XCTestCase {
    /// A PNG of `width`×`height` written by Cairo.
    private func png(width: Int, height: Int) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remote-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        defer { cairo_surface_destroy(surface) }
        XCTAssertEqual(cairo_surface_write_to_png(surface, path), CAIRO_STATUS_SUCCESS)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testHeaderChecksComeBeforeAnyDecoding() throws {
        XCTAssertNil(ImageLoader.problem(inImage: try png(width: 300, height: 200), name: "ok"))
        let huge = try XCTUnwrap(ImageLoader.problem(inImage: try png(width: 2100, height: 2100), name: "huge"))
        XCTAssertTrue(huge.contains("2100x2100 is too large a picture"), huge)
        let text = try XCTUnwrap(ImageLoader.problem(inImage: Array("not a picture".utf8), name: "text"))
        XCTAssertTrue(text.hasPrefix("text: "), text)
        XCTAssertNotNil(ImageLoader.problem(inImage: [], name: "empty"))
        XCTAssertNotNil(ImageLoader.problem(inImage: Array(try png(width: 64, height: 64).prefix(40)), name: "cut"))
    }

    /// A local PNG too large to decode (4 MP for formats decoded at full size) is refused from
    /// its header: a 7071x7071 PNG once made the renderer peak at 192 MiB.
    func testLargeLocalPictureIsRefusedBeforeDecoding() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try png(width: 2100, height: 2100)).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try ImageLoader.load(path: path, coverSide: 100)) { error in
            XCTAssertTrue("\(error)".contains("2100x2100 is too large a picture"), "\(error)")
        }
    }

    func testBytesDecodeScaledToTheSideShown() throws {
        let image = try ImageLoader.load(bytes: try png(width: 400, height: 200), name: "a", coverSide: 100)
        XCTAssertEqual(image.height, 100)
        XCTAssertEqual(image.width, 200)
    }

    func testStoreKeepsAFewEntriesAndCountsChanges() {
        let store = RemoteImageStore()
        XCTAssertTrue(store.begin("https://a/1"))
        XCTAssertFalse(store.begin("https://a/1"), "each image is fetched once")
        let revision = store.revision
        store.finish("https://a/1", .loaded([1, 2, 3]))
        XCTAssertGreaterThan(store.revision, revision)
        for index in 2...RemoteImageStore.capacity + 2 { _ = store.begin("https://a/\(index)") }
        XCTAssertNil(store.state(of: "https://a/1"), "oldest out")
        XCTAssertEqual(store.state(of: "https://a/\(RemoteImageStore.capacity + 2)"), .loading)
        store.forget("https://a/\(RemoteImageStore.capacity + 2)")
        XCTAssertTrue(store.begin("https://a/\(RemoteImageStore.capacity + 2)"))
    }

    func testCacheIsBoundedByBytesLeastRecentlyUsedFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for index in 0..<3 {
            let path = directory.appendingPathComponent("\(index).png").path
            try Data(try png(width: 100, height: 100)).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let cache = ImageCache(maxBytes: 2 * 100 * 100 * 4)
        XCTAssertNotNil(cache.image(.file(path: paths[0]), coverSide: 100))
        XCTAssertNotNil(cache.image(.file(path: paths[1]), coverSide: 100))
        XCTAssertNotNil(cache.image(.file(path: paths[0]), coverSide: 100))  // 0 used again: 1 is oldest
        XCTAssertNotNil(cache.image(.file(path: paths[2]), coverSide: 100))
        XCTAssertEqual(cache.count, 2)
        XCTAssertLessThanOrEqual(cache.totalBytes, cache.maxBytes)
        XCTAssertNil(cache.image(.remote(url: "https://x/y.png"), coverSide: 100), "not fetched: nothing")
        XCTAssertNil(cache.failure(for: [.remote(url: "https://x/y.png")]))
    }

    /// Issue 28: with off-loop decoding (serve), asking for a picture never decodes it where it is
    /// asked: the decoder thread does, and the caller gets the old picture (or none) meanwhile.
    func testPicturesAreDecodedOffTheCallersThreadAndArriveLater() throws {
        let decoders = PictureDecoders(label: "test-decoder", threads: 1)
        let gate = DispatchSemaphore(value: 0)
        decoders.submit { gate.wait() }  // the one decoder thread is busy until the gate opens
        let decoded = Mutex(0)
        let failed = Mutex<[String]>([])
        let store = RemoteImageStore(decoding: .init(decoders: decoders, decoded: { decoded.withLock { $0 += 1 } },
                                                     failed: { url, _ in failed.withLock { $0.append(url) } }))
        let cache = ImageCache(remote: store)
        XCTAssertTrue(store.begin("https://cdn.example/a.png"))
        store.finish("https://cdn.example/a.png", .loaded(try png(width: 400, height: 200)))
        XCTAssertTrue(store.begin("https://cdn.example/bad.png"))
        store.finish("https://cdn.example/bad.png", .loaded(Array("not a picture".utf8)))
        let revision = store.revision

        XCTAssertNil(cache.image(.remote(url: "https://cdn.example/a.png"), coverSide: 100), "nothing decoded on this thread")
        XCTAssertNil(cache.image(.remote(url: "https://cdn.example/bad.png"), coverSide: 100))
        XCTAssertTrue(cache.isDecoding)
        gate.signal()
        for _ in 0..<250 where cache.isDecoding { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(cache.isDecoding)
        XCTAssertEqual(decoded.withLock { $0 }, 2, "the frame loop is woken for each")
        XCTAssertGreaterThan(store.revision, revision, "the stable layer is drawn again")
        XCTAssertEqual(cache.image(.remote(url: "https://cdn.example/a.png"), coverSide: 100)?.height, 100)
        XCTAssertEqual(failed.withLock { $0 }, ["https://cdn.example/bad.png"], "a failed decode is reported once")
        XCTAssertNil(cache.image(.remote(url: "https://cdn.example/bad.png"), coverSide: 100))
        XCTAssertEqual(failed.withLock { $0 }.count, 1, "and not decoded again")

        // Another size of the same picture: the one decoded is shown until the new one is ready.
        let gateAgain = DispatchSemaphore(value: 0)
        decoders.submit { gateAgain.wait() }
        XCTAssertEqual(cache.image(.remote(url: "https://cdn.example/a.png"), coverSide: 50)?.height, 100)
        gateAgain.signal()
        for _ in 0..<250 where cache.isDecoding { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(cache.image(.remote(url: "https://cdn.example/a.png"), coverSide: 50)?.height, 50)
    }
}
