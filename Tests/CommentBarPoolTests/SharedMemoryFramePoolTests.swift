// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import CommentBarPool
import CommentBarPoolABI
import Glibc
import XCTest

final class SharedMemoryFramePoolTests: XCTestCase {
    func testAttachingReadsTheGeometryAndSignsTheHeader() throws {
        let shim = try ShimSidePool(width: 33, height: 17)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        XCTAssertEqual(pool.width, 33)
        XCTAssertEqual(pool.height, 17)
        XCTAssertEqual(pool.stride, 33 * 4)
        XCTAssertEqual(pool.backSlot, 0, "the writer starts owning slot 0")
        XCTAssertNil(pool.lastPublished())
        XCTAssertEqual(shim.producerPID, UInt32(getpid()))
        XCTAssertGreaterThan(shim.heartbeat, 0, "attaching is a sign of life")
        XCTAssertNil(try shim.take(), "nothing is published yet")
    }

    func testEachPublishedFrameReachesTheReaderWithItsSequence() throws {
        let shim = try ShimSidePool(width: 8, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        for frame in 1...6 {
            fill(pool.backBuffer(), with: 0xFF00_0000 | UInt32(frame))
            let written = pool.backSlot
            pool.publish()
            XCTAssertNotEqual(pool.backSlot, written)
            XCTAssertEqual(shim.sequence, UInt64(frame))
            let taken = try XCTUnwrap(try shim.take(), "frame \(frame) was published")
            XCTAssertEqual(taken.slot, written)
            XCTAssertEqual(taken.sequence, UInt64(frame))
            XCTAssertEqual(shim.pixel(slot: taken.slot, x: 7, y: 3), 0xFF00_0000 | UInt32(frame))
            XCTAssertNotEqual(pool.backSlot, shim.front, "writer and reader never own the same slot")
            XCTAssertNil(try shim.take(), "a frame is taken once")
        }
    }

    /// The latency probe: each published slot says when it was published, and the first frame
    /// after a row change says when that change was applied; the frame after it says none.
    func testPublishedFramesCarryTheLatencyProbesStamps() throws {
        let shim = try ShimSidePool(width: 8, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        let before = MonotonicTime.nanoseconds()
        pool.stampRowChange(at: before - 500)
        pool.stampRowChange(at: before - 900)
        let first = pool.backSlot
        pool.publish()
        let after = MonotonicTime.nanoseconds()
        let stamps = shim.stamps(slot: first)
        XCTAssertTrue((before...after).contains(stamps.published), "published at \(stamps.published), between \(before) and \(after)")
        XCTAssertEqual(stamps.changed, before - 500, "the newest change applied is the one told")
        let second = pool.backSlot
        pool.publish()
        XCTAssertEqual(shim.stamps(slot: second).changed, 0, "a frame after it shows no new change")
        XCTAssertGreaterThanOrEqual(shim.stamps(slot: second).published, stamps.published)
    }

    func testAReaderThatFallsBehindGetsTheNewestFrame() throws {
        let shim = try ShimSidePool(width: 4, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        var owned: Set<Int> = []
        for frame in 1...5 {
            fill(pool.backBuffer(), with: UInt32(frame))
            pool.publish()
            owned.insert(pool.backSlot)
            XCTAssertNotEqual(pool.backSlot, shim.front, "the reader's slot is never handed to the writer")
        }
        XCTAssertEqual(owned, [0, 1], "with the reader on slot 2, the writer swaps the other two")
        let taken = try XCTUnwrap(try shim.take())
        XCTAssertEqual(taken.sequence, 5)
        XCTAssertEqual(shim.pixel(slot: taken.slot, x: 0, y: 0), 5)
    }

    func testTheLastPublishedFrameStaysReadableForTheNextFrame() throws {
        let shim = try ShimSidePool(width: 6, height: 3)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        fill(pool.backBuffer(), with: 0x1234_5678)
        pool.publish()
        _ = try shim.take()
        let base = try XCTUnwrap(pool.lastPublished())
        XCTAssertEqual(base.pixels.load(fromByteOffset: 2 * base.stride + 20, as: UInt32.self), 0x1234_5678)
        XCTAssertNotEqual(base.pixels, pool.backBuffer().pixels)
    }

    func testStatusIsWholeWhenTheGenerationIsEven() throws {
        let shim = try ShimSidePool(width: 4, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        pool.setStatus(CB_STATUS_RECONNECTING, "retrying in 2 s — 再接続")
        let status = try XCTUnwrap(shim.status())
        XCTAssertEqual(status.code, CB_STATUS_RECONNECTING.rawValue)
        XCTAssertEqual(String(decoding: status.text, as: UTF8.self), "retrying in 2 s — 再接続")
        XCTAssertEqual(shim.statusGeneration % 2, 0)
        XCTAssertGreaterThan(shim.statusGeneration, 0)
    }

    func testLongStatusIsCutAtACharacterBoundary() throws {
        let shim = try ShimSidePool(width: 4, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        pool.setStatus(CB_STATUS_ERROR, String(repeating: "あ", count: 100))
        let text = try XCTUnwrap(shim.status()).text
        // 159 bytes fit before the NUL: 53 whole three-byte characters.
        XCTAssertEqual(text.count, 159)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), String(repeating: "あ", count: 53))
        pool.setStatus(CB_STATUS_LIVE, "ok")
        XCTAssertEqual(try XCTUnwrap(shim.status()).text, Array("ok".utf8), "a shorter text ends at its NUL")
    }

    func testTheHeartbeatMovesOn() throws {
        let shim = try ShimSidePool(width: 4, height: 4)
        let pool = try SharedMemoryFramePool(fd: shim.fd)
        let first = shim.heartbeat
        usleep(2000)
        pool.heartbeatWriter.beat()
        XCTAssertGreaterThan(shim.heartbeat, first)
    }

    func testAPoolWithABadHeaderIsRefused() throws {
        let spoiled: [(String, (inout cb_pool_header) -> Void)] = [
            ("bad magic", { $0.magic = 0 }),
            ("unknown version", { $0.version = 2 }),
            ("header size", { $0.header_size = 64 }),
            ("slot count", { $0.slot_count = 4 }),
            ("frame size out of range", { $0.width = 0 }),
            ("frame size out of range", { $0.height = 9000 }),
            ("stride", { $0.stride = 12 }),
            ("slot size", { $0.slot_size = 100 }),
            ("pool size", { $0.pool_size = UInt64.max }),
            // The ring is checked with the rest (cb_pool_check): one past the mapping refuses the pool.
            ("audio ring does not fit", { $0.audio_offset = 1 << 40; $0.audio_size = cb_audio_ring_size() }),
        ]
        for (problem, spoil) in spoiled {
            let shim = try ShimSidePool(width: 4, height: 4, edit: spoil)
            XCTAssertThrowsError(try SharedMemoryFramePool(fd: shim.fd), problem) { error in
                XCTAssert("\(error)".contains(problem), "\(error) names \(problem)")
            }
        }
    }

    func testAFileTooSmallOrNoFileIsRefused() throws {
        XCTAssertThrowsError(try SharedMemoryFramePool(fd: -1)) { error in
            XCTAssert("\(error)".contains("pool fd -1"), "\(error)")
        }
        let shim = try ShimSidePool(width: 4, height: 4)
        XCTAssertEqual(ftruncate(shim.fd, 100), 0)
        XCTAssertThrowsError(try SharedMemoryFramePool(fd: shim.fd)) { error in
            XCTAssert("\(error)".contains("smaller than a pool header"), "\(error)")
        }
    }

    private func fill(_ frame: FrameBuffer, with value: UInt32) {
        for row in 0..<frame.height {
            let line = (frame.pixels + row * frame.stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<frame.width { line[column] = value }
        }
    }
}
