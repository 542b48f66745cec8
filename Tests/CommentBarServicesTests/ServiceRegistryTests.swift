// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import Foundation
import Synchronization
import XCTest
@testable import CommentBarServices

final class ServiceRegistryTests: XCTestCase {
    func testIdsAreUniqueLowercaseAndNamed() {
        let ids = ServiceRegistry.ids
        XCTAssertEqual(Set(ids).count, ids.count, "\(ids)")
        XCTAssertEqual(ids.first, "demo", "OBS's default service comes first")
        for service in ServiceRegistry.all {
            XCTAssertTrue(service.id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }, service.id)
            XCTAssertFalse(service.displayName.isEmpty)
            XCTAssertFalse(service.streamIDHelp.isEmpty)
        }
    }

    func testOnlyLocalServicesMayNameLocalFilesAndReplay() {
        let local = ServiceRegistry.all.filter(\.mayNameLocalFiles).map(\.id)
        XCTAssertEqual(local, ["demo", "file"])
        XCTAssertEqual(ServiceRegistry.all.filter { $0.makeTimeline != nil }.map(\.id), ["demo", "file"])
    }

    func testUnknownServiceNamesTheKnownOnes() {
        XCTAssertThrowsError(try ServiceRegistry.makeFeed(service: "myspace", request: .init(streamID: "x"))) { error in
            let message = (error as? FeedConfigError)?.message ?? ""
            XCTAssertTrue(message.contains("unknown service \"myspace\""), message)
            for id in ServiceRegistry.ids { XCTAssertTrue(message.contains(id), message) }
        }
        XCTAssertThrowsError(try ServiceRegistry.makeTimeline(service: "twitch", streamID: "x")) { error in
            XCTAssertTrue("\(error)".contains("demo or file"), "\(error)")
        }
    }

    func testNULInSettingsIsRefusedNotTruncated() {
        for (service, streamID, server) in [("file", "/tmp/a\u{0}b.jsonl", ""), ("twitch", "chan\u{0}", ""),
                                            ("websocket", "x", "ws://h/\u{0}"), ("demo", "\u{0}", "")] {
            XCTAssertThrowsError(try ServiceRegistry.makeFeed(service: service,
                                                              request: .init(streamID: streamID, server: server))) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains("contains a NUL character"), message)
                XCTAssertFalse(message.contains("\u{0}") || message.contains("\n"), message)
            }
        }
    }

    /// docs/feed-protocol.md has one section per service, headed with its id, and no other.
    func testDocsHaveOneSectionPerService() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/feed-protocol.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        let documented = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("### "), let open = line.firstIndex(of: "`"),
                  let close = line[line.index(after: open)...].firstIndex(of: "`") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        XCTAssertEqual(documented, ServiceRegistry.ids)
    }

    func testNetworkFeedsCannotNameLocalFiles() async {
        struct Script: CommentFeed {
            func run(emit: @escaping @Sendable (FeedEvent) -> Void) async {
                emit(.avatar(.file(path: "/etc/passwd")))
                emit(.background(.file(path: "/home/streamer/secret.png")))
                emit(.avatar(.remote(url: "https://cdn.example/a.png")))
                emit(.avatar(nil))
                emit(.viewers(3))
            }
        }
        let seen = Mutex<[FeedEvent]>([])
        await LocalFileGuard(feed: Script(), source: "test").run { event in seen.withLock { $0.append(event) } }
        XCTAssertEqual(seen.withLock { $0 }, [.avatar(.remote(url: "https://cdn.example/a.png")), .avatar(nil), .viewers(3)])
    }
}
