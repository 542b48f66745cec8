// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
import Logging
import Synchronization
import XCTest
@testable import CommentBarServe

/// A frame sink in memory: the frames, statuses and heartbeats a session produced.
final class MemoryFrameSink: FrameSink, @unchecked Sendable {
    // @unchecked: the frame loop is the only writer of the pool; the rest is behind `recorded`.
    let pool: MemoryFramePool
    struct Recorded {
        var statuses: [(SinkStatus, String)] = []
        var heartbeats = 0
    }
    let recorded = Mutex(Recorded())

    init(width: Int, height: Int) { pool = MemoryFramePool(width: width, height: height) }

    var width: Int { pool.width }
    var height: Int { pool.height }
    func backBuffer() -> FrameBuffer { pool.backBuffer() }
    var backSlot: Int { pool.backSlot }
    func publish() { pool.publish() }
    func lastPublished() -> FrameBuffer? { pool.lastPublished() }
    func setStatus(_ status: SinkStatus, detail: String) { recorded.withLock { $0.statuses.append((status, detail)) } }
    func makeHeartbeat() -> @Sendable () -> Void { { [self] in self.recorded.withLock { $0.heartbeats += 1 } } }
}

final class ServeSessionTests: XCTestCase {
    private func settingsLine(_ extra: String = "") -> String {
        #"{"settings":{"service":"demo","width":320,"height":120"# + extra + "}}"
    }

    /// Drives a session with `lines`, waits until `until` holds (or 10 s), then closes stdin.
    private func run(_ lines: [String], fetch: @escaping RemoteImageFetches.Fetch = { _ in .failed("no network") },
                     until: @escaping (MemoryFrameSink) -> Bool) async -> MemoryFrameSink {
        let sink = MemoryFrameSink(width: 320, height: 120)
        let (messages, input) = AsyncStream.makeStream(of: String.self)
        for line in lines { input.yield(line) }
        let session = ServeSession(sink: sink, log: Logger(label: "test"), fetch: fetch)
        let task = Task { await session.run(messages: messages) }
        let deadline = ContinuousClock.now + .seconds(10)
        while !until(sink), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        input.finish()
        await task.value  // returns once stdin is closed
        return sink
    }

    func testDemoSettingsMakeFramesStatusAndHeartbeats() async {
        let sink = await run([settingsLine(), #"{"active":true}"#]) { $0.pool.publishedCount > 0 }
        XCTAssertGreaterThan(sink.pool.publishedCount, 0)
        let recorded = sink.recorded.withLock { $0 }
        XCTAssertEqual(recorded.statuses.first?.0, .starting)
        XCTAssertGreaterThan(recorded.heartbeats, 0)
    }

    func testHiddenBarMakesNoFramesAndSaysPaused() async {
        let sink = await run([#"{"active":false}"#, settingsLine()]) { sink in
            sink.recorded.withLock { $0.statuses.contains { $0.0 == .paused } }
        }
        XCTAssertEqual(sink.pool.publishedCount, 0)
    }

    func testBadLinesAreSkippedAndABadServiceIsAnErrorStatus() async {
        let sink = await run(["not json", #"{"settings":{"service":"nope","width":320,"height":120}}"#]) { sink in
            sink.recorded.withLock { $0.statuses.contains { $0.0 == .error } }
        }
        let error = sink.recorded.withLock { $0.statuses.first { $0.0 == .error } }
        XCTAssertTrue(error?.1.hasPrefix("unknown service") ?? false, "\(String(describing: error))")
    }

    /// A feed's https avatar is fetched once, off the frame loop, and a frame follows its arrival.
    func testRemoteAvatarIsFetchedOnceAndRedrawsWhenItArrives() async throws {
        let events = FileManager.default.temporaryDirectory.appendingPathComponent("avatar-\(UUID()).jsonl")
        try Data(#"{"type":"avatar","url":"https://cdn.example/a.png"}"#.utf8).write(to: events)
        defer { try? FileManager.default.removeItem(at: events) }
        let picture = Array(try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/images/bar-demo.png").standardized))
        let requests = Mutex<[String]>([])
        let framesBeforeArrival = Mutex<Int?>(nil)
        let sinkBox = Mutex<MemoryFrameSink?>(nil)
        let sink = await run([#"{"settings":{"service":"file","stream_id":"\#(events.path)","width":320,"height":120}}"#],
                             fetch: { url in
                                 requests.withLock { $0.append(url) }
                                 try? await Task.sleep(for: .milliseconds(300))
                                 framesBeforeArrival.withLock { $0 = sinkBox.withLock { $0?.pool.publishedCount } }
                                 return .loaded(picture)
                             }) { sink in
            sinkBox.withLock { $0 = sink }
            guard let before = framesBeforeArrival.withLock({ $0 }) else { return false }
            return sink.pool.publishedCount > before
        }
        XCTAssertEqual(requests.withLock { $0 }, ["https://cdn.example/a.png"])
        let before = try XCTUnwrap(framesBeforeArrival.withLock { $0 })
        XCTAssertGreaterThan(sink.pool.publishedCount, before, "the arrival made a new frame")
    }

    func testStatusDetailNeverRepeatsTheStateName() {
        XCTAssertEqual(ServeSession.sinkStatus(.reconnecting(reason: "connection refused")).1, "connection refused")
        XCTAssertEqual(ServeSession.sinkStatus(.error(message: "bad channel")).1, "bad channel")
        XCTAssertEqual(ServeSession.sinkStatus(.live).1, "")
    }

    func testCommandsDecodeAndIgnoreUnknownKeys() throws {
        XCTAssertEqual(try StdinMessage.decode(line: #"{"active":true,"obs":{"streaming":true}}"#).active, true)
        XCTAssertEqual(try StdinMessage.decode(line: settingsLine()).settings?.width, 320)
        XCTAssertThrowsError(try StdinMessage.decode(line: "[1]"))
    }
}

final class LogLineTests: XCTestCase {
    func testEveryMessageIsOneLineWithControlsVisible() {
        XCTAssertEqual(CompactStderrLogHandler.oneLine("feed: twitch a\r\nHost: evil\u{1b}[2J"),
                       "feed: twitch a\\r\\nHost: evil\\u{1b}[2J")
        XCTAssertEqual(CompactStderrLogHandler.oneLine("さくら 🌸"), "さくら 🌸")
    }

    func testALongValueIsCutOnceSayingItsLength() {
        let url = "wss://relay.example/" + String(repeating: "a", count: 30_000)
        let line = CompactStderrLogHandler.oneLine("feed: websocket \(url)")
        XCTAssertLessThanOrEqual(line.utf8.count, CompactStderrLogHandler.maxMessageBytes + 40)
        XCTAssertTrue(line.hasSuffix("… (30036 bytes)"), String(line.suffix(40)))
        XCTAssertFalse(line.contains("\n"))
    }
}
