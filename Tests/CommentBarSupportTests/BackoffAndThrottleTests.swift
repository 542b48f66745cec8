// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Testing

@Suite struct BackoffTests {
    @Test func doublesUpToTheCapWithoutJitter() {
        var backoff = Backoff(base: .seconds(1), cap: .seconds(30), jitter: false)
        let delays = (0..<7).map { _ in backoff.nextDelay() }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30].map { Duration.seconds($0) })
        backoff.reset()
        #expect(backoff.nextDelay() == .seconds(1))
    }

    @Test func jitterStaysBetweenHalfAStepAndTheStep() {
        var backoff = Backoff(base: .milliseconds(500), cap: .seconds(30))
        for failure in 0..<12 {
            let step = min(Duration.seconds(30), .milliseconds(500) * (1 << failure))
            let delay = backoff.nextDelay()
            #expect(delay >= step / 2 && delay <= step, "failure \(failure): \(delay) outside \(step / 2)...\(step)")
        }
    }

    @Test func manyFailuresDoNotOverflow() {
        var backoff = Backoff(base: .seconds(1), cap: .seconds(5), jitter: false)
        for _ in 0..<1000 { _ = backoff.nextDelay() }
        #expect(backoff.nextDelay() == .seconds(5))
    }
}

@Suite struct LogThrottleTests {
    @Test func admitsOncePerIntervalAndCountsWhatWasHeldBack() {
        let throttle = LogThrottle(interval: .seconds(60))
        let start = ContinuousClock.now
        #expect(throttle.admit(now: start) == 0)
        #expect(throttle.admit(now: start + .seconds(1)) == nil)
        #expect(throttle.admit(now: start + .seconds(59)) == nil)
        #expect(throttle.admit(now: start + .seconds(60)) == 2)
    }

    @Test func keysAreApartAndBounded() {
        let throttle = LogThrottle(interval: .seconds(60), maxKeys: 2)
        let now = ContinuousClock.now
        #expect(throttle.admit("a", now: now) == 0)
        #expect(throttle.admit("b", now: now) == 0)
        #expect(throttle.admit("a", now: now) == nil)
        // A third key pushes out the oldest; "a" and "b" were equally old, one of them goes.
        #expect(throttle.admit("c", now: now + .seconds(1)) == 0)
        throttle.reset("c")
        #expect(throttle.admit("c", now: now + .seconds(2)) == 0)
    }
}
