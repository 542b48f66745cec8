// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization
import XCTest
@testable import CommentBarServe

/// The frame loop's alarm on its own thread (`AlarmThread`): it rings once at the earliest time
/// asked, never before it, an earlier time replaces a later one, a later one leaves the earlier
/// set, and a cancelled alarm stays quiet.
final class FlowAlarmTests: XCTestCase {
    /// When each ring came, on the alarm's clock.
    private final class Rings: Sendable {
        let times = Mutex<[Double]>([])
        func count() -> Int { times.withLock { $0.count } }
    }

    /// An alarm on a frame thread of its own (nil: the sleeping task the loop falls back to).
    private func alarm(thread: FrameThread? = FrameThread.start()) -> (FlowAlarm, Rings) {
        let rings = Rings()
        let box = Mutex<FlowAlarm?>(nil)
        let alarm = FlowAlarm(on: thread, ring: { if let now = box.withLock({ $0?.now }) { rings.times.withLock { $0.append(now) } } })
        box.withLock { $0 = alarm }
        return (alarm, rings)
    }

    private func waitFor(_ condition: () -> Bool, seconds: Double = 3) {
        let end = Date().addingTimeInterval(seconds)
        while !condition() && Date() < end { usleep(2_000) }
    }

    func testItRingsOnceAtTheEarliestTimeAskedAndNeverBefore() throws {
        try ringsOnceAtTheEarliestTimeAsked(thread: FrameThread.start())
    }

    func testWithoutAFrameThreadItRingsFromATask() throws {
        try ringsOnceAtTheEarliestTimeAsked(thread: nil)
    }

    /// A job sent to the frame thread runs on it, one after the other.
    func testTheFrameThreadRunsATaskThatPrefersIt() async throws {
        let thread = try XCTUnwrap(FrameThread.start())
        let ran = await withTaskGroup(of: Int.self) { group in
            for index in 0..<3 { group.addTask(executorPreference: thread) { await Task.yield(); return index } }
            return await group.reduce(0, +)
        }
        XCTAssertEqual(ran, 3)
        thread.stop()
        // Stopped, what still prefers it runs on the pool.
        let after = await Task(executorPreference: thread) { 7 }.value
        XCTAssertEqual(after, 7)
    }

    private func ringsOnceAtTheEarliestTimeAsked(thread: FrameThread?) throws {
        let (alarm, rings) = alarm(thread: thread)
        let start = alarm.now
        alarm.set(start + 0.30)
        alarm.set(start + 0.10)  // earlier: replaces
        alarm.set(start + 0.20)  // later: the earlier stays
        waitFor { rings.count() >= 1 }
        usleep(300_000)
        let times = rings.times.withLock { $0 }
        XCTAssertEqual(times.count, 1, "one ring for the three asks: \(times)")
        let first = try XCTUnwrap(times.first)
        XCTAssertGreaterThanOrEqual(first, start + 0.10, "never before its time")
        XCTAssertLessThan(first, start + 0.20, "at the earliest time asked, not a later one")
        // Rung, it is free for the next time; a time already past rings at once.
        alarm.set(alarm.now - 1)
        waitFor { rings.count() >= 2 }
        XCTAssertEqual(rings.count(), 2)
    }

    func testACancelledAlarmStaysQuiet() {
        let (alarm, rings) = alarm()
        alarm.set(alarm.now + 0.05)
        alarm.cancel()
        usleep(250_000)
        XCTAssertEqual(rings.count(), 0)
        alarm.set(alarm.now + 0.05)
        waitFor { rings.count() >= 1 }
        XCTAssertEqual(rings.count(), 1, "set again after a cancel, it rings")
    }
}
