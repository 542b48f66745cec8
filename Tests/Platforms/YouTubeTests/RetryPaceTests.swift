// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Synchronization
import XCTest
@testable import YouTubePlatform

final class RetryPaceTests: XCTestCase {
    func testWaitsGrowAndAreCapped() {
        var pace = RetryPace()
        let waits = (0..<8).map { _ in pace.notStarted() }
        XCTAssertGreaterThanOrEqual(waits[0], .seconds(5))
        XCTAssertLessThanOrEqual(waits[0], .milliseconds(6250))
        XCTAssertGreaterThan(waits[2], waits[0])
        XCTAssertTrue(waits.allSatisfy { $0 <= .seconds(75) })
        pace.reset()
        XCTAssertLessThanOrEqual(pace.notStarted(), .milliseconds(6250))
    }

    func testRateLimitWaitsAtLeastThirtySeconds() {
        var pace = RetryPace()
        for _ in 0..<12 {
            let wait = pace.failed(status: 429)
            XCTAssertGreaterThanOrEqual(wait, .seconds(30))
            XCTAssertLessThanOrEqual(wait, .seconds(750))
        }
        var other = RetryPace()
        XCTAssertGreaterThanOrEqual(other.failed(status: 500), .seconds(2))
        var slow = RetryPace()
        XCTAssertGreaterThanOrEqual(slow.unavailable(), .seconds(60))
    }

    func testStatusIsReportedOnlyWhenItChanges() {
        let seen = Mutex<[FeedEvent]>([])
        let reporter = StatusReporter { event in seen.withLock { $0.append(event) } }
        reporter.report(.connecting)
        reporter.report(.waiting(reason: "x"))
        reporter.report(.waiting(reason: "x"))
        XCTAssertFalse(reporter.wasLive)
        reporter.report(.live)
        reporter.report(.live)
        reporter.report(.waiting(reason: "x"))
        XCTAssertTrue(reporter.wasLive)
        reporter.forgetLive()
        XCTAssertFalse(reporter.wasLive)
        XCTAssertEqual(seen.withLock { $0 }, [.status(.connecting), .status(.waiting(reason: "x")), .status(.live),
                                               .status(.waiting(reason: "x"))])
    }
}
