// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds
import CommentBarNetTesting
import Synchronization
import XCTest
@testable import CommentBarNet

/// Issue 28: one deadline for the whole exchange, the body included. A host that sends its
/// headers and then a byte every few hundred milliseconds (AsyncHTTPClient's read timeout never
/// fires, its deadline covers only the head) is cut off at the deadline.
final class DeadlineTests: XCTestCase {
    private func dripping() async throws -> (LoopbackHTTPS, HTTPSTransport) {
        let server = try await LoopbackHTTPS(routes: ["/drip": .drip(every: .milliseconds(300), bytes: 100)])
        let web = HTTPSTransport(environment: try server.environment(hosts: ["cdn.example"]))
        addTeardownBlock {
            await web.shutdown()
            await server.close()
        }
        return (server, web)
    }

    func testADrippingBodyTimesOutAtTheDeadline() async throws {
        let (_, web) = try await dripping()
        let started = ContinuousClock.now
        do {
            _ = try await web.fetch(WebRequest(url: "https://cdn.example/drip", limits: WebLimits(maxBytes: 1 << 20, timeout: .seconds(2))))
            XCTFail("a body of 100 bytes at 300 ms each came whole within 2 s")
        } catch {
            XCTAssertEqual(error.description, "https://cdn.example/drip: timed out")
        }
        // The whole body would take 30 s: the answer came at the deadline, not at the end.
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    }

    func testADrippingStreamTimesOutAtTheDeadline() async throws {
        let (_, web) = try await dripping()
        let body = try await web.open(WebRequest(url: "https://cdn.example/drip",
                                                 limits: WebLimits(maxBytes: 1 << 20, timeout: .seconds(2))))
        let started = ContinuousClock.now
        var received = 0
        do {
            for try await chunk in body { received += chunk.count }
            XCTFail("the stream ended after \(received) bytes instead of timing out")
        } catch {
            XCTAssertEqual(error.description, "https://cdn.example/drip: timed out")
        }
        XCTAssertGreaterThan(received, 0, "bytes came before the deadline")
        XCTAssertLessThan(received, 100)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(10))
    }

    /// Work that ignores cancellation (a name lookup on the thread pool) still costs its caller
    /// no more than the deadline; what it returns late is handed back to be released.
    func testTheCallerIsAnsweredAtTheDeadlineWhateverTheWorkDoes() async throws {
        let released = Mutex(false)
        let started = ContinuousClock.now
        do {
            _ = try await Deadline.run(until: .now + .milliseconds(200), timedOut: WebFailure("late"),
                                       cancelled: WebFailure("cancelled"), discard: { (_: Int) in released.withLock { $0 = true } }) {
                () async throws(WebFailure) -> Int in
                // Sleeps on without looking at cancellation.
                let until = ContinuousClock.now + .milliseconds(600)
                while ContinuousClock.now < until { usleep(10_000) }
                return 1
            }
            XCTFail("no timeout")
        } catch {
            XCTAssertEqual(error, WebFailure("late"))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(500))
        for _ in 0..<100 where !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertTrue(released.withLock { $0 }, "the late result was discarded")
        let quick = try await Deadline.run(until: .now + .seconds(5), timedOut: WebFailure("late"),
                                           cancelled: WebFailure("cancelled")) { () async throws(WebFailure) -> Int in 7 }
        XCTAssertEqual(quick, 7)
    }
}
