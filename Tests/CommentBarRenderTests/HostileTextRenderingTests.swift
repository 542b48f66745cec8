// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFrames
@testable import CommentBarRender
import CommentBarSupport
import Foundation
import XCTest

/// Issue 19, findings 3 and 5: a relay's status text and a viewer's name cannot paint over or
/// reorder what the bar shows.
final class HostileTextRenderingTests: XCTestCase {
    private static let hugeStatus = (1...40).map { "FAKE LINE \($0) — pay here " + String(repeating: "x", count: 26_000) }
        .joined(separator: "\n")

    /// Pools rendered into, kept alive for the test: a frame's pixels live in its pool.
    private var pools: [MemoryFramePool] = []

    private func frame(_ state: BarState, width: Int = 1280, height: Int = 360) throws -> FrameBuffer {
        let pool = MemoryFramePool(width: width, height: height)
        pools.append(pool)
        BarRenderer(settings: BarSettings(), width: width, height: height).render(state, now: 100, into: pool)
        return try XCTUnwrap(pool.newestFrame)
    }

    private func rows(_ frame: FrameBuffer, from top: Int) -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: frame.pixels + top * frame.stride, count: frame.stride))
    }

    func testAHugeMultiLineStatusIsOneEllipsizedLineInItsBox() throws {
        XCTAssertGreaterThan(Self.hugeStatus.utf8.count, 1_000_000)
        var state = BarState()
        state.apply(.comment(ChatLine(id: "1", user: "viewer", text: "a comment row")))
        var quiet = state
        quiet.apply(.relayStatus(.error(message: "short")))
        state.apply(.relayStatus(.error(message: Self.hugeStatus)))
        let detail = try XCTUnwrap(state.relayStatus?.detail)
        XCTAssertLessThanOrEqual(detail.unicodeScalars.count, TextSanitizer.maxStatusScalars + 1)
        XCTAssertFalse(detail.contains("\n"))
        XCTAssertTrue(detail.hasSuffix("…"))

        let engine = TextEngine()
        let font = TextEngine.font(family: "Sans", size: 20)
        let line = StatusLine.layout(Self.hugeStatus, engine: engine, font: font, width: 400)
        XCTAssertEqual(line.lineCount, 1)
        XCTAssertLessThanOrEqual(line.width, 400)

        // Nothing of it reaches the comment rows: below the header the bar is as with a short status.
        let loud = try frame(state), calm = try frame(quiet)
        let firstDifferentRow = (0..<loud.height).first { row in
            rows(loud, from: row).prefix(loud.stride) != rows(calm, from: row).prefix(calm.stride)
        }
        XCTAssertLessThan(firstDifferentRow ?? 0, loud.height / 4, "the status drew down to row \(firstDifferentRow ?? 0)")
        let lastDifferentRow = (0..<loud.height).last { row in
            rows(loud, from: row).prefix(loud.stride) != rows(calm, from: row).prefix(calm.stride)
        }
        XCTAssertLessThan(lastDifferentRow ?? 0, loud.height / 4, "the status drew down to row \(lastDifferentRow ?? 0)")

        // The bound, generous for a debug build: applying and laying out the status.
        var times: [Double] = []
        for _ in 0..<7 {
            let start = ContinuousClock.now
            var fresh = BarState()
            fresh.apply(.relayStatus(.error(message: Self.hugeStatus)))
            _ = StatusLine.layout(fresh.relayStatus?.detail ?? "", engine: engine, font: font, width: 400)
            let elapsed = ContinuousClock.now - start
            times.append(elapsed.inSeconds * 1000)
        }
        XCTAssertLessThan(times.sorted()[times.count / 2], 10, "median \(times.sorted()[times.count / 2]) ms")
    }

    /// `nameflip<RLO>` once reversed the message after it; a right-to-left name moved the digits
    /// that start the message in front of it. Names and messages are isolated now.
    func testAReversedNameLeavesTheMessageInOrder() throws {
        var flipped = BarState()
        flipped.apply(.comment(ChatLine(id: "1", user: "nameflip\u{202E}", text: "hello world 123")))
        flipped.apply(.comment(ChatLine(id: "2", user: "שלום", text: "123 go")))
        flipped.apply(.comment(ChatLine(id: "3", user: "viewer", text: "\u{202E}drowdab kept in order")))
        var plain = BarState()
        plain.apply(.comment(ChatLine(id: "1", user: "nameflip", text: "hello world 123")))
        plain.apply(.comment(ChatLine(id: "2", user: "שלום", text: "123 go")))
        plain.apply(.comment(ChatLine(id: "3", user: "viewer", text: "drowdab kept in order")))
        let frame = try frame(flipped)
        XCTAssertTrue(bytes(frame) == bytes(try self.frame(plain)), "the overrides change nothing on the bar")
        try assertMatchesGolden(frame, named: "bidi-isolated-names-1280x360.png")

        // The message's first character sits after the end of a right-to-left name, not before it.
        let engine = TextEngine()
        let font = TextEngine.font(family: "Sans", size: 20)
        let row = RowText(ChatLine(id: "2", user: "שלום", text: "123 go"), showBadges: false, emotes: nil)
        let layout = engine.layout(row.text, font: font)
        let nameRight = (row.name.lowerBound..<row.name.upperBound).map { byte in
            let box = layout.box(atByte: byte)
            return max(box.x, box.x + box.width)
        }.max() ?? 0
        XCTAssertGreaterThanOrEqual(layout.box(atByte: row.body.lowerBound).x, nameRight - 0.5)
    }
}
