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
    private func run(events: [String], settings: String, settle: Duration = .zero,
                     until: @escaping (FrameTimingSink) -> Bool) async throws -> FrameTimingSink {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pacing-\(UUID()).jsonl")
        try Data(events.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let sink = FrameTimingSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(file.path)","width":320,"height":120,"#
                    + settings + "}}")
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") })
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(20)
        while !until(sink), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
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

    /// Nothing changes once the comment is shown (no clock): 2.5 s of the loop's wake-ups (the
    /// 100 ms ticker) make no frame after the first second's.
    func testAnIdleBarMakesNoFrames() async throws {
        let sink = try await run(events: [comment(0, at: 0)], settings: #""show_clock":false"#,
                                 settle: .milliseconds(2500)) { $0.pool.publishedCount > 0 }
        let times = sink.published.withLock { $0 }
        let first = try XCTUnwrap(times.first)
        XCTAssertLessThan(times.count, 5)
        XCTAssertTrue(times.allSatisfy { $0 - first < .seconds(1) }, "frames made while nothing changed")
    }
}
