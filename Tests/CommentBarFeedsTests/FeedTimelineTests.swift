// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
@testable import CommentBarFeeds
import Foundation
import XCTest

final class FeedTimelineTests: XCTestCase {
    func testFileParsesWithOriginFromStart() throws {
        let text = """
        // a comment line and a blank line are skipped

        {"at":0,"type":"start","time":1000}
        {"at":2,"type":"comment","id":"a","user":"u","text":"first"}
        {"type":"viewers","count":5}
        {"at":1,"type":"comment","id":"b","user":"u","text":"earlier"}
        """
        let timeline = try FeedTimeline.parse(data: Data(text.utf8), name: "t.jsonl")
        XCTAssertEqual(timeline.origin, 1000)
        XCTAssertEqual(timeline.entries.map(\.at), [0, 1, 2, 2])
        let (state, now) = timeline.state(at: 1.5)
        XCTAssertEqual(state.lines.map(\.id), ["b"])
        XCTAssertEqual(now, 1001.5)
        XCTAssertEqual(BarState.elapsedText(since: state.streamStart, now: now), "00:00:01")
        XCTAssertEqual(timeline.state(at: 2).state.viewers, 5)
        XCTAssertEqual(timeline.state(at: 2).state.lines.map(\.arrivedAt), [1001, 1002],
                       "each row arrived at its moment on the replay's clock (RowMotion ages rows by it)")
    }

    func testRecordingHeaderAnchorsTheClock() throws {
        let text = """
        {"type":"recording","time":5000}
        {"at":0.5,"type":"start","time":1400}
        """
        let timeline = try FeedTimeline.parse(data: Data(text.utf8), name: "r.jsonl")
        let (state, now) = timeline.state(at: 10)
        XCTAssertEqual(BarState.elapsedText(since: state.streamStart, now: now), "01:00:10")
    }

    func testBadLinesNameFileAndLine() {
        let text = "{\"at\":0,\"type\":\"start\",\"time\":1}\n\n{\"at\":1,\"type\":\"comment\",\"id\":\"x\"}\n"
        XCTAssertThrowsError(try FeedTimeline.parse(data: Data(text.utf8), name: "bad.jsonl")) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "bad.jsonl:3: comment event needs \"text\"")
        }
        let invalidUTF8 = Data([0x7B, 0xFF, 0x7D, 0x0A])
        XCTAssertThrowsError(try FeedTimeline.parse(data: invalidUTF8, name: "bytes.jsonl")) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "bytes.jsonl:1: not a JSON object")
        }
        XCTAssertThrowsError(try FeedTimeline.load(path: "/nonexistent/events.jsonl")) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "/nonexistent/events.jsonl: no such file")
        }
        XCTAssertThrowsError(try FeedTimeline.load(path: "/dev/zero")) { error in
            XCTAssertEqual((error as? FeedConfigError)?.message, "/dev/zero: not a regular file")
        }
    }

    func testTimelineFeedReplaysInOrderAndStopsWhenCancelled() async {
        let timeline = FeedTimeline(entries: [
            .init(at: 0, event: .start(time: 0)),
            .init(at: 0.05, event: .comment(ChatLine(id: "a", user: "u", text: "one"))),
            .init(at: 0.1, event: .comment(ChatLine(id: "b", user: "u", text: "two"))),
        ])
        let collected = EventLog()
        let task = Task { await TimelineFeed(timeline: timeline, loopEvery: nil).run { collected.add($0) } }
        // Polled up to a generous deadline: a loaded machine is slow, not wrong.
        let deadline = ContinuousClock.now + .seconds(20)
        while collected.events.count < 4 && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        task.cancel()
        await task.value
        let events = collected.events
        XCTAssertEqual(events.first, .status(.live))
        XCTAssertEqual(events.compactMap { if case .comment(let line) = $0 { line.id } else { nil } }, ["a", "b"])
        if case .start(let time) = events[1] {
            XCTAssertEqual(time, Date().timeIntervalSince1970, accuracy: 5, "start moved onto the wall clock")
        } else {
            XCTFail("start first")
        }
    }
}

final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [FeedEvent] = []
    func add(_ event: FeedEvent) { lock.withLock { stored.append(event) } }
    var events: [FeedEvent] { lock.withLock { stored } }
}
