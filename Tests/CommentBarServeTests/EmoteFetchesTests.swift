// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
import CommentBarNet
import CommentBarNetTesting
import CommentBarRender
@testable import CommentBarServe
import Foundation
import Logging
import Synchronization
import XCTest

final class EmoteFetchesTests: XCTestCase {
    /// A chat naming picture after picture on a CDN that never answers: at most a few fetches run,
    /// and the waiting queue stays bounded (the oldest waiting ones are forgotten, not kept).
    func testTheQueueIsBoundedWhenTheCDNNeverAnswers() async {
        let fetches = EmoteFetches(log: Logger(label: "test"), fetch: { _ in
            try? await Task.sleep(for: .seconds(60))
            return .failure(EmoteFetches.Failure("never answered"))
        }, arrived: {})
        let lines = (0..<(EmoteFetches.maxWaiting * 2)).map { index in
            ChatLine(id: "\(index)", user: "u", text: "e\(index)",
                     emotes: [Emote(range: 0..<"e\(index)".unicodeScalars.count, name: "e\(index)", url: "https://cdn/\(index)")])
        }
        fetches.want(lines)
        var known = 0
        for index in lines.indices {
            if fetches.store.state(of: "https://cdn/\(index)") != nil { known += 1 }
        }
        XCTAssertLessThanOrEqual(known, EmoteFetches.maxWaiting + EmoteFetches.maxConcurrent)
        XCTAssertNotNil(fetches.store.state(of: "https://cdn/\(lines.count - 1)"), "the newest are kept")
        fetches.giveUp(after: 0)
    }

    /// Issue 28: hosts that send their headers and then a byte every few hundred milliseconds held
    /// every fetch slot for 40 s, and no other emote of any stream was fetched. Four such hosts
    /// (over real HTTPS on loopback) do not keep a fifth emote from being fetched and decoded
    /// within the deadline, and each of them fails at the deadline.
    func testFourDrippingHostsDoNotStopAFifthEmote() async throws {
        let still = Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CommentBarRenderTests/Emotes/still.png").standardized))
        let server = try await LoopbackHTTPS(routes: ["/drip.png": .drip(every: .milliseconds(300), bytes: 1000),
                                                      "/still.png": .body(still)])
        let web = HTTPSTransport(environment: try server.environment(hosts: ["a.example", "b.example", "c.example",
                                                                            "d.example", "e.example"]))
        addTeardownBlock {
            await web.shutdown()
            await server.close()
        }
        let deadline = Duration.seconds(3)
        let fetches = EmoteFetches(log: Logger(label: "test"),
                                   fetch: EmoteFetches.fetching(from: web, limits: WebLimits(maxBytes: 2 << 20, timeout: deadline),
                                                                cache: nil),
                                   arrived: {})
        let drippers = ["a", "b", "c", "d"].map { "https://\($0).example/drip.png" }
        let fifth = "https://e.example/still.png"
        let urls = drippers + [fifth]
        fetches.want(urls.enumerated().map { index, url in
            ChatLine(id: "\(index)", user: "u", text: "e\(index)", emotes: [Emote(range: 0..<2, name: "e\(index)", url: url)])
        })
        let started = ContinuousClock.now
        func isReady(_ url: String) -> Bool { if case .ready? = fetches.store.state(of: url) { true } else { false } }
        func hasFailed(_ url: String) -> Bool { if case .failed? = fetches.store.state(of: url) { true } else { false } }
        while !isReady(fifth), ContinuousClock.now - started < deadline { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertTrue(isReady(fifth), "the fifth emote was fetched and decoded within the deadline")
        XCTAssertTrue(drippers.allSatisfy { !hasFailed($0) && !isReady($0) }, "the dripping hosts are still at it")
        while !drippers.allSatisfy(hasFailed), ContinuousClock.now - started < deadline * 3 {
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertTrue(drippers.allSatisfy(hasFailed), "each dripping host failed at the deadline")
        XCTAssertLessThan(ContinuousClock.now - started, deadline * 3, "the whole body would take 300 s")
    }

    /// Two fetches from one host at most: a host cannot take every slot.
    func testOneHostTakesTwoSlotsAtMost() async throws {
        let started = Mutex<[String]>([])
        let fetches = EmoteFetches(log: Logger(label: "test"), fetch: { url in
            started.withLock { $0.append(url) }
            try? await Task.sleep(for: .seconds(60))
            return .failure(EmoteFetches.Failure("stalled"))
        }, arrived: {})
        let urls = (0..<5).map { "https://slow.example/\($0)" } + ["https://other.example/x"]
        fetches.want(urls.enumerated().map { index, url in
            ChatLine(id: "\(index)", user: "u", text: "ee", emotes: [Emote(range: 0..<2, name: "ee", url: url)])
        })
        for _ in 0..<100 where started.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        XCTAssertEqual(Set(started.withLock { $0 }), ["https://slow.example/0", "https://slow.example/1", "https://other.example/x"])
        fetches.giveUp(after: 0)
    }
}
