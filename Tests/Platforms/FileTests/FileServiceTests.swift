// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import Foundation
import Synchronization
import CommentBarNetTesting
import XCTest
@testable import FilePlatform

final class FileServiceTests: XCTestCase {
    func testAMissingFileIsRefusedAtOnce() {
        XCTAssertThrowsError(try FileService.description.makeFeed(.init(streamID: "/nonexistent.jsonl", web: EmbeddedWeb()))) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "/nonexistent.jsonl: no such file")
        }
        XCTAssertThrowsError(try FileService.description.makeFeed(.init(streamID: "", web: EmbeddedWeb()))) { error in
            XCTAssertTrue("\(error)".contains("path of a JSON-lines file"), "\(error)")
        }
        XCTAssertThrowsError(try FileService.description.makeTimeline?(""))
    }

    func testABadFileBecomesAnErrorStatus() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).jsonl").path
        try Data("{\"type\":\"nope\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let collected = Mutex<[FeedEvent]>([])
        let feed = try FileService.description.makeFeed(.init(streamID: path, web: EmbeddedWeb()))
        await feed.run { event in collected.withLock { $0.append(event) } }
        XCTAssertEqual(collected.withLock { $0 },
                       [.status(.connecting), .status(.error(message: "\(path):1: unknown event type \"nope\""))])
    }
}
