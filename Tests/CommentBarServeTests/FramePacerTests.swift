// SPDX-License-Identifier: GPL-2.0-or-later
import XCTest
@testable import CommentBarServe

/// The frame loop's pacing, on a clock the test gives: frames asked for at chosen times,
/// each made at the earliest time the pacer allows.
final class FramePacerTests: XCTestCase {
    /// Makes a frame for every request (seconds, ascending) as soon as the pacer allows,
    /// one frame at a time like the frame loop; returns when each was made.
    private func frames(fps: Int, wanted: [Double]) -> [Double] {
        var pacer = FramePacer(fps: fps)
        var made: [Double] = []
        var clock = 0.0
        for time in wanted {
            clock = pacer.earliest(now: max(clock, time))
            pacer.made(at: clock)
            made.append(clock)
        }
        return made
    }

    /// The most frames in any one-second window [t, t + 1) of `times` (ascending).
    private func mostInOneSecond(_ times: [Double]) -> Int {
        var most = 0
        var first = 0
        for (index, time) in times.enumerated() {
            while times[first] <= time - 1 { first += 1 }
            most = max(most, index - first + 1)
        }
        return most
    }

    func testABurstNeverExceedsFPSInAnyOneSecond() {
        for fps in [1, 5, 30, 60] {
            // A frame wanted every millisecond for five seconds, then a flood at one instant.
            let made = frames(fps: fps, wanted: (0..<5000).map { Double($0) / 1000 } + Array(repeating: 5.5, count: 200))
            XCTAssertLessThanOrEqual(mostInOneSecond(made), fps, "fps \(fps)")
            // The cap is reached, not undercut: a busy bar still gets its frames.
            XCTAssertGreaterThanOrEqual(mostInOneSecond(made), fps, "fps \(fps)")
        }
    }

    func testBusyFramesAreSpreadNotClumped() {
        let fps = 30
        let made = frames(fps: fps, wanted: (0..<3000).map { Double($0) / 1000 })
        let gaps = zip(made.dropFirst(), made).map { $0 - $1 }
        // Never two frames closer than an interval twice in a row: one early frame, then the pace.
        for (first, second) in zip(gaps, gaps.dropFirst()) {
            XCTAssertFalse(first < 0.5 / Double(fps) && second < 0.5 / Double(fps), "\(first), \(second)")
        }
        // No pause longer than two intervals while frames are wanted.
        XCTAssertLessThanOrEqual(gaps.max() ?? 0, 2.0 / Double(fps) + 1e-5)
    }

    func testAFrameRightAfterTheClocksGoesOutAtOnce() {
        var pacer = FramePacer(fps: 30)
        pacer.made(at: 10.0)  // the clock's second
        XCTAssertEqual(pacer.earliest(now: 10.001), 10.001, "a comment 1 ms after the clock's frame waits for nothing")
        pacer.made(at: 10.001)
        // The early frame was the one allowed: the next keeps the steady pace from the clock's.
        XCTAssertEqual(pacer.earliest(now: 10.002), 10.0 + 1.0 / 30, accuracy: 1e-9)
    }

    func testAQuietBarIsNeverHeldBack() {
        var pacer = FramePacer(fps: 30)
        for second in 0..<5 {
            let time = Double(second)
            XCTAssertEqual(pacer.earliest(now: time), time)
            pacer.made(at: time)
        }
    }
}
