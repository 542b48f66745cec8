// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarSpeech
import XCTest

final class SpeechQueueTests: XCTestCase {
    /// 50 comments within one second, speech_max_delay 5: the newest is read, after "ほか N 件",
    /// and reading is done within 5 s of the last arrival.
    func testAFloodReadsTheNewestWithinTheDelay() throws {
        var queue = SpeechQueue(maxDelay: 5)
        var busyUntil = 0.0
        var spoken: [SpeechQueue.Utterance] = []
        var now = 0.0
        func speakDue() {
            while busyUntil <= now, let next = queue.next(now: now) {
                spoken.append(next)
                busyUntil = now + queue.estimate(next.text)
            }
        }
        for index in 0..<50 {
            now = Double(index) * 0.02
            queue.add(.init(id: "\(index)", user: "u\(index)", text: "コメント番号\(index)です", arrived: now), now: now,
                      busyUntil: busyUntil)
            speakDue()
        }
        let lastArrival = now
        while !queue.waiting.isEmpty {
            now = max(now, busyUntil)
            speakDue()
        }
        now = max(now, busyUntil)
        XCTAssertEqual(spoken.last?.item.id, "49", "the newest comment is read")
        let skipped = spoken.map(\.skippedBefore).reduce(0, +)
        XCTAssertEqual(skipped + spoken.count, 50, "every comment is read or counted")
        XCTAssertGreaterThan(skipped, 30)
        XCTAssertTrue(spoken.contains { $0.text.hasPrefix("ほか\($0.skippedBefore)件。") && $0.skippedBefore > 0 })
        XCTAssertLessThanOrEqual(now, lastArrival + 5, "reading finishes within speech_max_delay")
    }

    /// The first-time sound waits in the same queue: in order with readings, never dropped for
    /// lateness nor counted as skipped; chimes left side by side ring once; paused, only chimes go.
    func testChimesWaitInOrderAndAreNeverDropped() {
        var queue = SpeechQueue(maxDelay: 5)
        queue.chimeSeconds = 0.7
        func item(_ id: String, _ kind: SpeechQueue.Item.Kind, at time: Double, text: String = "a reading") -> SpeechQueue.Item {
            SpeechQueue.Item(id: id, user: "u\(id)", text: kind == .chime ? "" : text, arrived: time, kind: kind)
        }
        // Something long is being read: everything waits.
        for (index, time) in [0.0, 0.1, 0.2].enumerated() {
            queue.add(item("c\(index)", .chime, at: time), now: time, busyUntil: 20)
            queue.add(item("r\(index)", .speech, at: time), now: time, busyUntil: 20)
        }
        XCTAssertEqual(queue.waiting.filter { $0.kind == .chime }.count, 3, "no chime is dropped to catch up")
        XCTAssertTrue(queue.waiting.filter { $0.kind == .speech }.count < 3, "readings are")
        // Taken late: the late readings go, the chimes left side by side ring once.
        let next = queue.next(now: 20)
        XCTAssertEqual(next?.item.kind, .chime)
        XCTAssertEqual(next?.skippedBefore, 0)
        XCTAssertTrue(queue.waiting.isEmpty, "\(queue.waiting)")
        XCTAssertEqual(queue.skipped, 3, "the readings dropped are counted, for the next one's \"N more\"")

        queue.add(item("r9", .speech, at: 30), now: 30, busyUntil: 0)
        queue.add(item("c9", .chime, at: 30), now: 30, busyUntil: 0)
        XCTAssertEqual(queue.next(now: 30, paused: true)?.item.id, "c9", "paused: a chime still rings")
        XCTAssertNil(queue.next(now: 30, paused: true), "the reading waits")
        XCTAssertEqual(queue.next(now: 30)?.text, "3 more. a reading")
        queue.add(item("c10", .chime, at: 31), now: 31, busyUntil: 0)
        queue.add(item("r10", .speech, at: 31), now: 31, busyUntil: 0)
        queue.removeAll(.speech)
        XCTAssertEqual(queue.waiting.map(\.id), ["c10"], "speech turned off: chimes stay")
        queue.remove(id: "c10")
        XCTAssertTrue(queue.waiting.isEmpty, "a deleted row's chime goes with it")
    }

    func testStaleItemsAreDroppedWhenTaken() {
        var queue = SpeechQueue(maxDelay: 5)
        queue.add(.init(id: "a", user: "u", text: "one", arrived: 0), now: 0, busyUntil: 0)
        queue.add(.init(id: "b", user: "u", text: "two", arrived: 4), now: 4, busyUntil: 0)
        let next = queue.next(now: 6)
        XCTAssertEqual(next?.item.id, "b")
        XCTAssertEqual(next?.text, "1 more. two")
    }

    func testDeletedItemsAreNotRead() {
        var queue = SpeechQueue(maxDelay: 10)
        queue.add(.init(id: "a", user: "x", text: "one", arrived: 0), now: 0, busyUntil: 0)
        queue.add(.init(id: "b", user: "y", text: "two", arrived: 0), now: 0, busyUntil: 0)
        queue.add(.init(id: "c", user: "y", text: "three", arrived: 0), now: 0, busyUntil: 0)
        queue.remove(id: "a")
        XCTAssertEqual(queue.waiting.map(\.id), ["b", "c"])
        queue.remove(user: "y")
        XCTAssertNil(queue.next(now: 0))
    }

    func testTheQueueIsBounded() {
        var queue = SpeechQueue(maxDelay: 120, secondsPerCharacter: 0)
        for index in 0..<1000 {
            queue.add(.init(id: "\(index)", user: "", text: "", arrived: 0), now: 0, busyUntil: 0)
        }
        XCTAssertLessThanOrEqual(queue.waiting.count, SpeechQueue.maxItems)
    }
}
