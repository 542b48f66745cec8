// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import XCTest
@testable import CommentBarNet

/// Issue 19, finding 4: the disk cache's cap bounds the disk it really uses.
final class HTTPDiskCacheTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("diskcache-\(UUID())").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `du -sk` of the cache directory, in bytes.
    private func diskUsage() throws -> Int {
        let du = Process()
        du.executableURL = URL(fileURLWithPath: "/usr/bin/du")
        du.arguments = ["-sk", directory]
        let output = Pipe()
        du.standardOutput = output
        try du.run()
        du.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return try XCTUnwrap(Int(text.split(separator: "\t").first ?? "")) * 1024
    }

    func testTenThousandTinyEntriesStayWithinTheCapOnDisk() throws {
        let cap = 64 << 10
        let cache = try XCTUnwrap(HTTPDiskCache(directory: directory, maxBytes: cap))
        for index in 0..<10_000 {
            cache.put("https://cdn.example/\(index).png", body: [UInt8(index & 0xFF)], cacheControl: nil)
        }
        // The directory itself and its lock file are the fixed overhead (a few blocks).
        let fixedOverhead = 32 << 10
        let used = try diskUsage()
        XCTAssertLessThanOrEqual(used, cap + fixedOverhead, "du says \(used) bytes for a \(cap)-byte cap")
        XCTAssertLessThanOrEqual(cache.countedBytes, cap)
        XCTAssertLessThanOrEqual(cache.scans, 1, "the directory is listed once, not on every write")
        XCTAssertEqual(cache.get("https://cdn.example/9999.png"), [UInt8(9999 & 0xFF)], "the newest entry is kept")
        XCTAssertNil(cache.get("https://cdn.example/0.png"), "the oldest went first")
    }

    func testTheNumberOfEntriesIsCapped() throws {
        let cache = try XCTUnwrap(HTTPDiskCache(directory: directory, maxBytes: 64 << 20, maxEntries: 100))
        for index in 0..<1_000 { cache.put("https://cdn.example/\(index)", body: [1], cacheControl: nil) }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".entry") }
        XCTAssertLessThanOrEqual(entries.count, 100)
    }

    /// Entries are named by the URL's SHA-256 and written whole (no temporary file left behind).
    func testEntriesAreNamedByTheirHashAndWrittenWhole() throws {
        let cache = try XCTUnwrap(HTTPDiskCache(directory: directory))
        cache.put("https://cdn.example/a.png", body: Array(repeating: 7, count: 5000), cacheControl: nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != ".lock" }
        XCTAssertEqual(names, [HTTPDiskCache.name(for: "https://cdn.example/a.png")])
        // SHA-256 of "abc", the standard test vector.
        XCTAssertEqual(HTTPDiskCache.name(for: "abc"),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.entry")
        XCTAssertEqual(HTTPDiskCache.name(for: "x").count, 64 + ".entry".count)
        XCTAssertEqual(cache.get("https://cdn.example/a.png")?.count, 5000)
        // A cut-short entry (a reader racing a crash) is a miss, never a wrong picture.
        let path = directory + "/" + HTTPDiskCache.name(for: "https://cdn.example/a.png")
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        try whole.prefix(10).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(cache.get("https://cdn.example/a.png"))
    }

    /// Two renderers (two caches on one directory, as two processes would be) share it: each sees
    /// the other's entries, and the cap holds for both together.
    func testTwoRenderersShareTheCacheWithinOneCap() throws {
        let cap = 64 << 10
        let first = try XCTUnwrap(HTTPDiskCache(directory: directory, maxBytes: cap))
        let second = try XCTUnwrap(HTTPDiskCache(directory: directory, maxBytes: cap))
        DispatchQueue.concurrentPerform(iterations: 2) { which in
            let cache = which == 0 ? first : second
            for index in 0..<500 { cache.put("https://cdn.example/\(which)/\(index)", body: [1, 2, 3], cacheControl: nil) }
        }
        first.put("https://cdn.example/shared", body: [9], cacheControl: nil)
        XCTAssertEqual(second.get("https://cdn.example/shared"), [9])
        XCTAssertLessThanOrEqual(try diskUsage(), cap + (32 << 10))
    }
}
