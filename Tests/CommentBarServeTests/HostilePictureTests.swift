// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import CommentBarNetTesting
import Foundation
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

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
        let sink = FrameTimingSink(width: 320, height: 120)
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

    /// Issue 28: a relay's background (a progressive JPEG of ~1,000 empty scans) froze a
    /// 1920×1080 bar for 7.6 s: it was decoded on the frame loop. The bar's pictures are decoded
    /// off it now (and such a JPEG is refused from its markers): the frames keep coming.
    func testAHostileBackgroundAndAvatarDoNotStopTheFrames() async throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-bg-\(UUID()).jsonl")
        try Data((#"{"type":"background","url":"https://cdn.example/bg.jpg"}"# + "\n"
                  + #"{"type":"avatar","url":"https://cdn.example/avatar.jpg"}"#).utf8).write(to: events)
        defer { try? FileManager.default.removeItem(at: events) }
        let hostile = TestJPEG.progressive(width: 1920, height: 1080, acScans: 1000)
        let fetched = Mutex<[String]>([])
        let sink = FrameTimingSink(width: 1920, height: 1080)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        input.yield(#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":1920,"height":1080,"mic_meter":true}}"#)
        input.yield(#"{"active":true}"#)
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: { url in
            fetched.withLock { $0.append(url) }
            return .loaded(hostile)
        })
        let task = Task { await session.run(messages: messages) }
        // The mic meter moves ten times a second: each step is a frame, if the loop comes round.
        for step in 0..<40 {
            input.yield(#"{"obs":{"mic":"on","mic_level":\#(step % 10)}}"#)
            try await Task.sleep(for: .milliseconds(100))
        }
        input.finish()
        await task.value
        XCTAssertEqual(Set(fetched.withLock { $0 }), ["https://cdn.example/bg.jpg", "https://cdn.example/avatar.jpg"])
        let frames = sink.published.withLock { $0 }
        XCTAssertGreaterThan(frames.count, 10)
        let longestGap = zip(frames.dropFirst(), frames).map { $0 - $1 }.max() ?? .zero
        XCTAssertLessThan(longestGap, .seconds(1), "the frame loop stopped for \(longestGap)")
    }
}

/// A frame sink in memory that keeps when each frame was published and each heartbeat came.
final class FrameTimingSink: FrameSink, @unchecked Sendable {
    // @unchecked: the frame loop is the only writer of the pool; the times are behind a lock.
    let pool: MemoryFramePool
    let published = Mutex<[ContinuousClock.Instant]>([])
    /// When each heartbeat came (the ticker's and the frame loop's).
    let beats = Mutex<[ContinuousClock.Instant]>([])

    init(width: Int, height: Int) { pool = MemoryFramePool(width: width, height: height) }

    var width: Int { pool.width }
    var height: Int { pool.height }
    func backBuffer() -> FrameBuffer { pool.backBuffer() }
    var backSlot: Int { pool.backSlot }
    func publish() {
        pool.publish()
        published.withLock { $0.append(.now) }
    }
    func lastPublished() -> FrameBuffer? { pool.lastPublished() }
    func setStatus(_ status: SinkStatus, detail: String) {}
    func makeHeartbeat() -> @Sendable () -> Void { { [self] in self.beats.withLock { $0.append(.now) } } }
}
