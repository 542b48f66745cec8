// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
@testable import CommentBarRender
import XCTest

final class DamageTrackerTests: XCTestCase {
    private let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
    private let b = PixelRect(x: 20, y: 0, width: 5, height: 5)
    private let c = PixelRect(x: 40, y: 40, width: 8, height: 2)
    private let pool = MemoryFramePool(width: 100, height: 50)

    func testASlotNeverWrittenLacksEverything() {
        var tracker = DamageTracker(width: 100, height: 50)
        XCTAssertTrue(tracker.use(pool: ObjectIdentifier(pool)))
        XCTAssertEqual(tracker.missing(in: 0), [tracker.bounds])
        tracker.published(slot: 0, changed: [tracker.bounds])
        XCTAssertEqual(tracker.missing(in: 1), [PixelRect(x: 0, y: 0, width: 100, height: 50)])
    }

    func testASlotLacksWhatTheFramesSinceItChanged() {
        var tracker = DamageTracker(width: 100, height: 50)
        _ = tracker.use(pool: ObjectIdentifier(pool))
        tracker.published(slot: 0, changed: [tracker.bounds])  // frame 1
        tracker.published(slot: 1, changed: [a])               // frame 2
        tracker.published(slot: 2, changed: [b])               // frame 3
        XCTAssertEqual(tracker.missing(in: 0), [a, b])
        tracker.published(slot: 0, changed: [c])               // frame 4
        XCTAssertEqual(tracker.missing(in: 1), [b, c])
        XCTAssertEqual(tracker.missing(in: 2), [c])
        XCTAssertEqual(tracker.missing(in: 0), [], "the slot of the newest frame lacks nothing")
    }

    func testTheSameRectangleTwiceIsCopiedOnce() {
        var tracker = DamageTracker(width: 100, height: 50)
        _ = tracker.use(pool: ObjectIdentifier(pool))
        tracker.published(slot: 0, changed: [tracker.bounds])
        tracker.published(slot: 1, changed: [a, b])
        tracker.published(slot: 2, changed: [a])
        XCTAssertEqual(tracker.missing(in: 0), [a, b])
    }

    func testAFrameThatChangedNothingAddsNothing() {
        var tracker = DamageTracker(width: 100, height: 50)
        _ = tracker.use(pool: ObjectIdentifier(pool))
        tracker.published(slot: 0, changed: [tracker.bounds])
        tracker.published(slot: 1, changed: [])
        tracker.published(slot: 2, changed: [])
        XCTAssertEqual(tracker.missing(in: 0), [])
    }

    func testASlotFurtherBehindThanTheLogIsCopiedWhole() {
        var tracker = DamageTracker(width: 100, height: 50, depth: 2)
        _ = tracker.use(pool: ObjectIdentifier(pool))
        tracker.published(slot: 0, changed: [tracker.bounds])  // frame 1
        tracker.published(slot: 1, changed: [a])               // frame 2
        tracker.published(slot: 1, changed: [b])               // frame 3: the log holds 2 and 3
        XCTAssertEqual(tracker.missing(in: 0), [a, b], "frame 2 is the first one slot 0 lacks, still known")
        tracker.published(slot: 1, changed: [c])               // frame 4: the log holds 3 and 4
        XCTAssertEqual(tracker.missing(in: 0), [tracker.bounds], "frame 2's change is forgotten")
        XCTAssertEqual(tracker.missing(in: 1), [])
    }

    func testAnotherPoolStartsFromNothing() {
        let other = MemoryFramePool(width: 100, height: 50)
        var tracker = DamageTracker(width: 100, height: 50)
        XCTAssertTrue(tracker.use(pool: ObjectIdentifier(pool)))
        tracker.published(slot: 0, changed: [tracker.bounds])
        tracker.published(slot: 1, changed: [a])
        XCTAssertFalse(tracker.use(pool: ObjectIdentifier(pool)), "the same pool")
        XCTAssertEqual(tracker.missing(in: 0), [a])
        XCTAssertTrue(tracker.use(pool: ObjectIdentifier(other)))
        XCTAssertEqual(tracker.missing(in: 0), [tracker.bounds])
        XCTAssertEqual(tracker.missing(in: 1), [tracker.bounds])
    }

    /// Where a slot's rows are: from `top` to the bottom of a 100×50 frame, 40 pixels wide.
    private func rows(top: Int) -> PixelRect { PixelRect(x: 0, y: top, width: 40, height: 50 - top) }

    func testWhereASlotsRowsBeginIsKnownOnlyWhileTheSlotIs() {
        var tracker = DamageTracker(width: 100, height: 50, depth: 2)
        _ = tracker.use(pool: ObjectIdentifier(pool))
        XCTAssertNil(tracker.rows(in: 0)?.y, "never written")
        tracker.published(slot: 0, changed: [tracker.bounds], rows: rows(top: 30))  // frame 1
        tracker.published(slot: 1, changed: [a], rows: rows(top: 20))               // frame 2
        XCTAssertEqual(tracker.rows(in: 0)?.y, 30)
        XCTAssertEqual(tracker.rows(in: 1)?.y, 20)
        XCTAssertEqual(tracker.rows(in: 1)?.maxX, 40)
        tracker.published(slot: 1, changed: [b], rows: rows(top: 25))               // frame 3
        tracker.published(slot: 1, changed: [c], rows: rows(top: 25))               // frame 4: frame 2 forgotten
        XCTAssertNil(tracker.rows(in: 0)?.y, "slot 0 is too far behind to know")
        tracker.forgetRows()
        XCTAssertNil(tracker.rows(in: 1), "what lies under the rows changed")
        tracker.published(slot: 1, changed: [c], rows: rows(top: 25))
        XCTAssertTrue(tracker.use(pool: ObjectIdentifier(MemoryFramePool(width: 100, height: 50))))
        XCTAssertNil(tracker.rows(in: 1)?.y, "another pool")
    }

    func testARectangleWithoutAnotherIsTheBandsAroundIt() {
        let frame = PixelRect(x: 0, y: 0, width: 100, height: 50)
        let area = PixelRect(x: 30, y: 10, width: 60, height: 30)
        let bands = frame.subtracting(area)
        XCTAssertEqual(bands.reduce(0) { $0 + $1.width * $1.height }, 100 * 50 - 60 * 30)
        XCTAssertTrue(bands.allSatisfy { $0.intersection(area).isEmpty })
        XCTAssertEqual(a.subtracting(c), [a], "apart: the whole rectangle")
        XCTAssertEqual(a.subtracting(frame), [], "inside: nothing")
    }
}
