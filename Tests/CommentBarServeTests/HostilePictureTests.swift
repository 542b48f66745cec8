// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import Foundation
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// A frame sink in memory that keeps when each heartbeat came.
final class HeartbeatTimingSink: FrameSink, @unchecked Sendable {
    // @unchecked: the frame loop is the only writer of the pool; the beats are behind a lock.
    let pool = MemoryFramePool(width: 320, height: 120)
    let beats = Mutex<[ContinuousClock.Instant]>([])

    var width: Int { pool.width }
    var height: Int { pool.height }
    func backBuffer() -> FrameBuffer { pool.backBuffer() }
    var backSlot: Int { pool.backSlot }
    func publish() { pool.publish() }
    func lastPublished() -> FrameBuffer? { pool.lastPublished() }
    func setStatus(_ status: SinkStatus, detail: String) {}
    func makeHeartbeat() -> @Sendable () -> Void { { [self] in self.beats.withLock { $0.append(.now) } } }
}

/// Issue 19, finding 1: a relay's "emotes" that are heavy SVG drawings (librsvg took 30 s on
/// one and silenced the heartbeat for 18 s) never stop the heartbeat.
final class HostilePictureTests: XCTestCase {
    /// An SVG whose filters take librsvg seconds to draw.
    static let heavySVG: [UInt8] = {
        let blurs = String(repeating: #"<feGaussianBlur stdDeviation="40"/><feMorphology operator="dilate" radius="30"/>"#,
                           count: 40)
        let shapes = (0..<60).map { #"<circle cx="\#($0 * 8)" cy="250" r="200" filter="url(#f)"/>"# }.joined()
        return Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="500" height="500"><defs><filter id="f">"#.utf8)
            + Array(blurs.utf8) + Array("</filter></defs>\(shapes)</svg>".utf8)
    }()

    func testSVGEmotesFromARelayNeverStopTheHeartbeat() async throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("svg-emotes-\(UUID()).jsonl")
        let lines = (0..<4).map { index in
            #"{"type":"comment","id":"\#(index)","user":"u","text":"pic\#(index)","emotes":[{"start":0,"end":4,"name":"pic\#(index)","url":"https://cdn.example/\#(index).svg"}]}"#
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: events)
        defer { try? FileManager.default.removeItem(at: events) }
        let fetched = Mutex(0)
        let sink = HeartbeatTimingSink()
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":320,"height":120}}"#)
        input.yield(#"{"active":true}"#)
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { _ in .failed("no network") },
                                   emoteFetch: { _ in
                                       fetched.withLock { $0 += 1 }
                                       return .success(Self.heavySVG)
                                   })
        let task = Task { await session.run(messages: messages) }
        try await Task.sleep(for: .seconds(5))
        input.finish()
        await task.value
        XCTAssertGreaterThan(fetched.withLock { $0 }, 0, "the SVG emotes were fetched")
        let beats = sink.beats.withLock { $0 }
        XCTAssertGreaterThan(beats.count, 5)
        let longestGap = zip(beats.dropFirst(), beats).map { $0 - $1 }.max() ?? .zero
        XCTAssertLessThan(longestGap, .seconds(1), "the heartbeat stopped for \(longestGap)")
    }
}
