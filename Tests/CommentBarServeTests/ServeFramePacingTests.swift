// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import Foundation
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// The frame loop's pacing in a real session: a `file` feed's comments, frames in memory.
final class ServeFramePacingTests: XCTestCase {
    /// Runs a session on a file of `events` until `until` holds (or 20 s), then `settle` longer.
    private func run(events: [String], settings: String, obs: String? = nil, settle: Duration = .zero,
                     stallLimit: Duration = .seconds(10), then act: (ServeSession) -> Void = { _ in },
                     until: @escaping (FrameTimingSink) -> Bool) async throws -> FrameTimingSink {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pacing-\(UUID()).jsonl")
        try Data(events.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let sink = FrameTimingSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(file.path)","width":320,"height":120,"#
                    + settings + "}}")
        if let obs { input.yield(#"{"obs":"# + obs + "}") }
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   stallLimit: stallLimit)
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !until(sink), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        act(session)
        try await Task.sleep(for: settle)
        input.finish()
        await task.value
        return sink
    }

    private func comment(_ index: Int, at seconds: Double) -> String {
        #"{"type":"comment","id":"c\#(index)","user":"u","text":"comment \#(index)","at":\#(seconds)}"#
    }

    /// 400 comments in 0.8 s with `fps` 5: the frames that show them never pass 5 in a second.
    func testABurstNeverExceedsFPSInAnyOneSecond() async throws {
        let events = (0..<400).map { comment($0, at: 0.2 + Double($0) * 0.002) }
        let sink = try await run(events: events, settings: #""fps":5,"show_clock":false"#, settle: .seconds(1)) {
            $0.pool.publishedCount >= 5
        }
        let times = sink.published.withLock { $0 }
        XCTAssertGreaterThanOrEqual(times.count, 5)
        // Windows a little under a second: the sink notes a frame a moment before the pacer does.
        for (index, start) in times.enumerated() {
            let inWindow = times[index...].prefix { $0 - start < .milliseconds(990) }.count
            XCTAssertLessThanOrEqual(inWindow, 5, "frames \(index)...: \(inWindow) within a second")
        }
    }

    /// Issue 38: with `fade_after` 1 a row fades out a second after it is shown, over half a
    /// second, with no event to wake the loop (the renderer's `nextChange` is due), then no frame.
    func testARowFadesOutOnTimeWithNoEvent() async throws {
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":false,"fade_after":1"#,
                                 settle: .milliseconds(3000)) { $0.pool.publishedCount > 0 }
        let times = sink.published.withLock { $0 }
        let first = try XCTUnwrap(times.first)
        let fading = times.filter { $0 - first > .milliseconds(900) && $0 - first < .milliseconds(1800) }
        XCTAssertGreaterThanOrEqual(fading.count, 3, "the fade's frames: \(times.map { $0 - first })")
        XCTAssertTrue(times.allSatisfy { $0 - first < .milliseconds(2200) }, "frames after the fade ended")
    }

    /// Nothing changes once the comment is shown (no clock): 2.5 s make no frame after the
    /// first second's.
    func testAnIdleBarMakesNoFrames() async throws {
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":false"#,
                                 settle: .milliseconds(2500)) { $0.pool.publishedCount > 0 }
        let times = sink.published.withLock { $0 }
        let first = try XCTUnwrap(times.first)
        XCTAssertLessThan(times.count, 5)
        XCTAssertTrue(times.allSatisfy { $0 - first < .seconds(1) }, "frames made while nothing changed")
    }

    /// Issue 31: the clock shows whole seconds, so an idle bar with a running clock makes one
    /// frame a second, and the frame loop is woken for them only (the heartbeat's ticker does
    /// not wake it): in 3.5 s about 4 wake-ups of the loop and 7 beats, where a 100 ms ticker
    /// woke the loop 35 times.
    func testAnIdleClockWakesTheLoopOnceASecond() async throws {
        let start = Date().timeIntervalSince1970 - 100.5
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":true"#,
                                 obs: #"{"streaming":true,"streaming_start":\#(start)}"#,
                                 settle: .milliseconds(3500)) { $0.pool.publishedCount > 0 }
        let frames = sink.published.withLock { $0 }
        let first = try XCTUnwrap(frames.first)
        // After the first half second (the first frame, the feed's status): the clock's frames.
        let later = frames.filter { $0 - first > .milliseconds(500) }
        XCTAssertTrue((2...4).contains(later.count), "\(later.count) frames in 3 s of a ticking clock")
        for (earlier, next) in zip(later, later.dropFirst()) {
            XCTAssertGreaterThan(next - earlier, .milliseconds(700), "the clock's frames come a second apart")
        }
        // Each wake-up of the loop beats once; so does the ticker, every 500 ms.
        let beats = sink.beats.withLock { $0 }.filter { $0 - first > .milliseconds(500) }
        XCTAssertLessThan(beats.count, 14, "\(beats.count) beats in 3 s: the loop is woken when nothing is due")
    }

    /// An idle loop is not a stuck one: with nothing to draw for longer than the stall limit,
    /// the heartbeat keeps beating (the shim restarts a renderer silent for 3 s).
    func testAnIdleLoopKeepsTheHeartbeat() async throws {
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":false"#,
                                 settle: .milliseconds(2500), stallLimit: .milliseconds(600)) { $0.pool.publishedCount > 0 }
        let ended = ContinuousClock.now
        let beats = sink.beats.withLock { $0 }
        let longestGap = zip(beats.dropFirst(), beats).map { $0 - $1 }.max() ?? .zero
        XCTAssertLessThan(longestGap, .seconds(1), "the heartbeat stopped for \(longestGap)")
        XCTAssertLessThan(ended - (beats.last ?? .now - .seconds(60)), .seconds(1), "the heartbeat stopped")
    }

    /// A pin for `pin_seconds` ends on a bar where nothing else happens: the loop is woken at its
    /// end (no ticker comes round to notice it).
    func testATimedPinEndsWithNoEvent() async throws {
        let pinned = Mutex<ContinuousClock.Instant?>(nil)
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":false,"pin_seconds":1"#,
                                 settle: .milliseconds(2500), then: { session in
                                     // The first frame can come before the comment (pinning nothing):
                                     // the comment is in, and its frame out (a frame at most every
                                     // 33 ms), before the pin.
                                     let deadline = ContinuousClock.now + .seconds(10)
                                     while session.rowCount == 0, ContinuousClock.now < deadline { usleep(10_000) }
                                     usleep(300_000)
                                     pinned.withLock { $0 = .now }
                                     session.pinNewest()
                                 }) { $0.pool.publishedCount > 0 }
        let pinnedAt = try XCTUnwrap(pinned.withLock { $0 })
        let after = sink.published.withLock { $0 }.filter { $0 > pinnedAt }.map { $0 - pinnedAt }
        XCTAssertEqual(after.count, 2, "the pin's frame and the frame without it: \(after)")
        XCTAssertGreaterThan(after.last ?? .zero, .milliseconds(900), "the pin held its second")
        XCTAssertLessThan(after.last ?? .zero, .milliseconds(1500), "the pin ended on time")
    }
}
