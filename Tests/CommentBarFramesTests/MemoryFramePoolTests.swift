// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFrames
import XCTest

final class MemoryFramePoolTests: XCTestCase {
    func testBuffersHaveThePoolsGeometry() {
        let pool = MemoryFramePool(width: 7, height: 5)
        let frame = pool.backBuffer()
        XCTAssertEqual(frame.width, 7)
        XCTAssertEqual(frame.height, 5)
        XCTAssertEqual(frame.stride, 28, "rows are packed: width * 4 bytes")
        XCTAssertEqual(frame.byteCount, 140)
    }

    func testNothingIsPublishedAtFirst() {
        let pool = MemoryFramePool(width: 4, height: 4)
        XCTAssertNil(pool.lastPublished())
        XCTAssertNil(pool.newestFrame)
        XCTAssertNil(pool.newest)
        XCTAssertEqual(pool.publishedCount, 0)
    }

    func testPublishingHandsTheBackBufferOverAndMovesToAnotherSlot() {
        let pool = MemoryFramePool(width: 4, height: 2)
        var slots: [Int] = []
        for frame in 1...4 {
            let back = pool.backSlot
            fill(pool.backBuffer(), with: UInt32(frame))
            pool.publish()
            slots.append(back)
            XCTAssertEqual(pool.newest, back)
            XCTAssertEqual(pool.publishedCount, frame)
            XCTAssertNotEqual(pool.backSlot, back, "the renderer never writes the frame it just published")
            XCTAssertEqual(pool.lastPublished().map(firstPixel), UInt32(frame))
            XCTAssertEqual(pool.newestFrame.map(firstPixel), UInt32(frame))
        }
        XCTAssertEqual(slots, [0, 1, 2, 0], "three slots, used in turn")
    }

    func testSlotsAreApartAndKeepWhatWasLastWrittenIntoThem() {
        let pool = MemoryFramePool(width: 3, height: 3, slots: 3)
        for value in [10, 20, 30] as [UInt32] {
            fill(pool.backBuffer(), with: value)
            pool.publish()
        }
        // Back at slot 0: it still holds the first frame, untouched by the other two.
        XCTAssertEqual(pool.backSlot, 0)
        XCTAssertEqual(allPixels(pool.backBuffer()), Set([10]))
        XCTAssertEqual(pool.lastPublished().map(allPixels), Set([30]))
    }

    func testAPoolOfTwoSlotsAlternates() {
        let pool = MemoryFramePool(width: 2, height: 2, slots: 2)
        var slots: [Int] = []
        for _ in 0..<4 {
            slots.append(pool.backSlot)
            pool.publish()
        }
        XCTAssertEqual(slots, [0, 1, 0, 1])
    }

    func testNewBuffersAreTransparent() {
        let pool = MemoryFramePool(width: 5, height: 4)
        XCTAssertEqual(allPixels(pool.backBuffer()), Set([0]))
    }

    func testAFrameBufferDescribesForeignMemory() {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64 * 3, alignment: 16)
        defer { memory.deallocate() }
        let frame = FrameBuffer(pixels: memory, width: 10, height: 3, stride: 64)
        XCTAssertEqual(frame.byteCount, 192, "a stride wider than the row counts whole")
        XCTAssertEqual(frame.pixels, memory)
    }

    private func fill(_ frame: FrameBuffer, with value: UInt32) {
        for row in 0..<frame.height {
            let line = (frame.pixels + row * frame.stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<frame.width { line[column] = value }
        }
    }

    private func firstPixel(_ frame: FrameBuffer) -> UInt32 {
        frame.pixels.load(as: UInt32.self)
    }

    private func allPixels(_ frame: FrameBuffer) -> Set<UInt32> {
        var values: Set<UInt32> = []
        for row in 0..<frame.height {
            for column in 0..<frame.width {
                values.insert(frame.pixels.load(fromByteOffset: row * frame.stride + column * 4, as: UInt32.self))
            }
        }
        return values
    }
}
