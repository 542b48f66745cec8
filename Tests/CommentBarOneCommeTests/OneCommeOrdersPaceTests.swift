// SPDX-License-Identifier: GPL-2.0-or-later
import AsyncHTTPClient
@testable import CommentBarOneComme
import CommentBarTestSupport
import Foundation
import Logging
import NIOCore
import Synchronization
import XCTest

/// The 参加型 queue's waiting list is made and told at most every `ordersPace` (issue 48's flood:
/// a list of 500 made for each of thousands of joins held the network loop for a quarter of a
/// second), always ending on the newest list; while the server is off it is not made at all.
final class OneCommeOrdersPaceTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUp() {
        folder = TemporaryFolder()
    }

    private static func orders(_ count: Int) -> [OneCommeOrder] {
        (0..<count).map { OneCommeOrder(platform: "twitch", channel: "chan", user: "v\($0)", name: "V\($0)", played: 0, playing: false) }
    }

    private func listed(port: Int) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/api/orders")
        request.headers.add(name: "Host", value: "127.0.0.1:\(port)")
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        let response = try await client.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)) as? [Any])
        return list.count
    }

    func testABurstOfChangesMakesFewListsAndEndsOnTheNewest() async throws {
        let hook = OneCommeHook(log: Logger(label: "test"), templates: folder.file("templates"))
        hook.configure(enabled: true, port: ReservedPort().port)
        await hook.settle()
        let port = try XCTUnwrap(hook.port)
        let made = Atomic<Int>(0)
        for count in 1...300 {
            hook.ordersChanged {
                made.add(1, ordering: .relaxed)
                return Self.orders(count)
            }
        }
        XCTAssertEqual(made.load(ordering: .relaxed), 1, "the first change after a quiet moment is told at once")
        let deadline = ContinuousClock.now + .seconds(5)
        var count = 0
        while count != 300, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            count = try await listed(port: port)
        }
        XCTAssertEqual(count, 300, "the newest list is served")
        // The first at once, the newest after the pace (one more if the loop itself outlasted a pace).
        XCTAssertLessThanOrEqual(made.load(ordering: .relaxed), 3, "300 changes made a few lists, not one each")
        await hook.shutdown()
    }

    func testWhileTheServerIsOffNoListIsMadeAndItsStartTellsTheNewest() async throws {
        let hook = OneCommeHook(log: Logger(label: "test"), templates: folder.file("templates"))
        let made = Atomic<Int>(0)
        for count in 1...50 {
            hook.ordersChanged {
                made.add(1, ordering: .relaxed)
                return Self.orders(count)
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        XCTAssertEqual(made.load(ordering: .relaxed), 0, "nobody to tell: nothing made")
        hook.configure(enabled: true, port: ReservedPort().port)
        await hook.settle()
        let port = try XCTUnwrap(hook.port)
        let served = try await listed(port: port)
        XCTAssertEqual(served, 50, "the start tells the newest list")
        XCTAssertEqual(made.load(ordering: .relaxed), 1)
        await hook.shutdown()
    }
}
