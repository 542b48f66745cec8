// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import Foundation
import Synchronization
import CommentBarNetTesting
import XCTest
@testable import CommentBarServices

final class ServiceRegistryTests: XCTestCase {
    func testIdsAreUniqueLowercaseAndNamed() {
        let ids = ServiceRegistry.product.ids
        XCTAssertEqual(Set(ids).count, ids.count, "\(ids)")
        XCTAssertEqual(ids.first, "demo", "OBS's default service comes first")
        for service in ServiceRegistry.all {
            XCTAssertTrue(service.id.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }, service.id)
            XCTAssertFalse(service.displayName.isEmpty)
        }
    }

    /// Every service carries its own facts: help in English and Japanese, the URLs that pick it
    /// (all but the local replays, named `demo:` and `file:PATH`), and a badge; a platform
    /// (reached by web URLs) has a brand badge of its own, not the plain grey one.
    func testEveryServiceCarriesItsFacts() {
        for service in ServiceRegistry.all {
            XCTAssertFalse(service.streamIDHelp.en.isEmpty, "\(service.id): English help")
            XCTAssertFalse(service.streamIDHelp.ja.isEmpty, "\(service.id): Japanese help")
            XCTAssertTrue(service.streamIDHelp.ja.unicodeScalars.contains { $0.value >= 0x3000 },
                          "\(service.id): the Japanese help is in Japanese: \(service.streamIDHelp.ja)")
            XCTAssertFalse(service.streamIDHelp.en.unicodeScalars.contains { $0.value >= 0x3000 },
                           "\(service.id): the English help is in English: \(service.streamIDHelp.en)")
            let isLocalReplay = service.makeTimeline != nil
            XCTAssertEqual(service.urlPatterns.isEmpty, isLocalReplay, "\(service.id): URL patterns")
            let isWebPlatform = service.urlPatterns.contains { if case .hosts = $0.match { true } else { false } }
            if isWebPlatform {
                XCTAssertNotEqual(service.badge, .plain, "\(service.id): a platform has its brand's badge")
            }
        }
        let webBadges = ServiceRegistry.all.map(\.badge).filter { $0 != .plain }
        XCTAssertEqual(Set(webBadges).count, webBadges.count, "two platforms share a badge")
    }

    /// No two services claim the same host or scheme: the first would silently win.
    func testURLPatternsDoNotOverlap() {
        var claimed: [String: String] = [:]
        for service in ServiceRegistry.all {
            for pattern in service.urlPatterns {
                let keys: [String]
                switch pattern.match {
                case .hosts(let hosts): keys = hosts.map { "host " + $0 }
                case .schemes(let schemes): keys = schemes.map { "scheme " + $0 }
                }
                for key in keys {
                    XCTAssertNil(claimed[key], "\(key): \(claimed[key] ?? "") and \(service.id)")
                    claimed[key] = service.id
                }
            }
        }
    }

    /// Each platform's picture hosts are a fact of its own description (its folder), checked by
    /// the one `PictureHosts.allows`; the platforms whose pictures come from known CDNs say so.
    func testPictureHostsAreThePlatformsOwnFacts() throws {
        let hosts = Dictionary(uniqueKeysWithValues: ServiceRegistry.all.map { ($0.id, $0.pictureHosts) })
        for id in ["twitch", "youtube", "niconico"] { XCTAssertFalse(hosts[id]?.isEmpty ?? true, id) }
        let twitch = try XCTUnwrap(hosts["twitch"])
        for url in ["https://static-cdn.jtvnw.net/emoticons/v2/25/default/dark/2.0", "https://cdn.betterttv.net/emote/a/2x",
                    "https://cdn.frankerfacez.com/emote/1/2", "https://cdn.7tv.app/emote/a/2x.webp"] {
            XCTAssertTrue(PictureHosts.allows(url, hosts: twitch), url)
        }
        for url in ["https://127.0.0.1/x.png", "http://cdn.7tv.app/a", "https://cdn.7tv.app:8443/a", "https://evil.example/a.png",
                    "https://user@cdn.7tv.app/a"] {
            XCTAssertFalse(PictureHosts.allows(url, hosts: twitch), url)
        }
        XCTAssertTrue(PictureHosts.allows("https://yt4.ggpht.com/a", hosts: try XCTUnwrap(hosts["youtube"])))
        XCTAssertTrue(PictureHosts.allows("https://mpn.live.nicovideo.jp/x", hosts: try XCTUnwrap(hosts["niconico"])))
        XCTAssertFalse(PictureHosts.allows("https://nicovideo.jp.evil.example/x", hosts: try XCTUnwrap(hosts["niconico"])))
    }

    func testOnlyLocalServicesMayNameLocalFilesAndReplay() {
        let local = ServiceRegistry.all.filter(\.mayNameLocalFiles).map(\.id)
        XCTAssertEqual(local, ["demo", "file"])
        XCTAssertEqual(ServiceRegistry.all.filter { $0.makeTimeline != nil }.map(\.id), ["demo", "file"])
    }

    func testUnknownServiceNamesTheKnownOnes() {
        XCTAssertThrowsError(try ServiceRegistry.product.makeFeed(service: "myspace", request: .init(streamID: "x", web: EmbeddedWeb()))) { error in
            let message = (error as? FeedConfigError)?.message ?? ""
            XCTAssertTrue(message.contains("unknown service \"myspace\""), message)
            for id in ServiceRegistry.product.ids { XCTAssertTrue(message.contains(id), message) }
        }
        XCTAssertThrowsError(try ServiceRegistry.product.makeTimeline(service: "twitch", streamID: "x")) { error in
            XCTAssertTrue("\(error)".contains("demo or file"), "\(error)")
        }
    }

    func testNULInSettingsIsRefusedNotTruncated() {
        for (service, streamID, server) in [("file", "/tmp/a\u{0}b.jsonl", ""), ("twitch", "chan\u{0}", ""),
                                            ("websocket", "x", "ws://h/\u{0}"), ("demo", "\u{0}", "")] {
            XCTAssertThrowsError(try ServiceRegistry.product.makeFeed(service: service,
                                                              request: .init(streamID: streamID, server: server, web: EmbeddedWeb()))) { error in
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
        XCTAssertEqual(documented, ServiceRegistry.product.ids)
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
