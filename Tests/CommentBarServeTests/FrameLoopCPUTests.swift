// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarServe
import XCTest

/// `COMMENTBAR_CPU_TRACE`'s running totals, in the line `Tests/bench/flow_cpu.py` reads.
final class FrameLoopCPUTests: XCTestCase {
    func testOffItTimesAndLogsNothing() {
        var cpu = FrameLoopCPU(isOn: false)
        XCTAssertEqual(cpu.measure(.layout) { busy(); return 7 }, 7)
        XCTAssertEqual(cpu.layoutSeconds, 0)
        XCTAssertNil(cpu.lineIfDue())
    }

    func testOnItAddsEachPartsThreadTimeAndLogsOnceASecond() throws {
        var cpu = FrameLoopCPU(isOn: true)
        cpu.measure(.layout) { busy() }
        cpu.laidOut(rows: 3)
        cpu.measure(.frame) { busy() }
        cpu.madeFrame()
        XCTAssertGreaterThan(cpu.layoutSeconds, 0)
        XCTAssertGreaterThan(cpu.frameSeconds, 0)
        XCTAssertEqual(cpu.releaseSeconds, 0)
        let line = try XCTUnwrap(cpu.lineIfDue())
        let pattern = #/cpu: process [\d.]+ ms, releasing [\d.]+ ms, laying out [\d.]+ ms \(3 rows\), frames [\d.]+ ms \(1 frames\)/#
        XCTAssertNotNil(line.wholeMatch(of: pattern), line)
        XCTAssertNil(cpu.lineIfDue(), "a second has not passed")
    }

    /// A few milliseconds of work the optimiser cannot drop.
    private func busy() {
        var sum = 0.0
        for step in 0..<200_000 { sum += Double(step).squareRoot() }
        XCTAssertGreaterThan(sum, 0)
    }
}
