// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds
@testable import CommentBarNet
import Synchronization
import XCTest

/// The loop over a platform API's answers: a stream not live yet is `waiting` (shown once while
/// it stays so), a session's end of broadcast is `ended` and stays so while the stream is off,
/// and a 429 waits at least 30 s.
final class ResolvedChatLoopTests: XCTestCase {
    func testWaitingLiveEndedAndStayingEnded() async throws {
        let statuses = Mutex<[FeedStatus]>([])
        let answers: [ResolvedChatLoop.Resolution<Int>] = [.notLive("off"), .notLive("off"), .live(7), .notLive("off"),
                                                           .notLive("off")]
        let done = expectation(description: "every answer was used")
        let task = Task {
            var next = 0
            await ResolvedChatLoop.run(emit: { event in
                if case .status(let status) = event { statuses.withLock { $0.append(status) } }
            }, recheck: .seconds(1), resolve: {
                defer { next += 1 }
                if next == answers.count { done.fulfill() }
                return next < answers.count ? answers[next] : .notLive("off")
            }, connect: { target in
                XCTAssertEqual(target, 7)
                statuses.withLock { $0.append(.live) }
                return .ended("over")
            })
        }
        await fulfillment(of: [done], timeout: 60)
        task.cancel()
        await task.value
        XCTAssertEqual(statuses.withLock { $0 }, [.connecting, .waiting(reason: "off"), .live, .ended(reason: "over")])
    }

    func testTooManyRequestsWaitsThirtySeconds() async {
        let statuses = Mutex<[FeedStatus]>([])
        let task = Task {
            await ResolvedChatLoop.run(emit: { event in
                if case .status(let status) = event { statuses.withLock { $0.append(status) } }
            }, resolve: { () -> ResolvedChatLoop.Resolution<Int> in
                .failed("HTTP 429", retryAfter: ResolvedChatLoop.retryAfter(WebFailure("x", status: 429)))
            }, connect: { _ in .closed("never") })
        }
        while statuses.withLock({ $0.count }) < 2 { try? await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        XCTAssertEqual(statuses.withLock { $0 }, [.connecting, .error(message: "HTTP 429; retrying in 30 s")])
        XCTAssertEqual(ResolvedChatLoop.retryAfter(WebFailure("x", status: 500)), .zero)
    }
}
