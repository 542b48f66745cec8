// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarRender
import Foundation
import XCTest

final class RendererMemoryTests: XCTestCase {
    /// Letting start-up's code go drops resident pages of this process's code (the test binary
    /// and its libraries), and what runs afterwards faults back in: the process keeps working.
    func testReleasingStartUpCodeDropsResidentCodePages() throws {
        let before = try residentCodeKiB()
        XCTAssertGreaterThan(RendererMemory.releaseStartUpCode(), 0, "no mapping was let go")
        let after = try residentCodeKiB()
        XCTAssertLessThan(after, before, "resident code \(before) KiB before, \(after) KiB after")
        // Code and read-only data of the binary fault back in.
        var budget = GlyphBudget(limit: 3)
        budget.note("四つの字")
        XCTAssertTrue(budget.isSpent)
    }

    func testOnlyReadOnlyFileMappingsOfCodeOrTheExecutableQualify() throws {
        let executable = "/usr/bin/commentbar"
        let cases: [(String, Bool)] = [
            ("55d0c8e00000-55d0c9000000 r-xp 00001000 fd:01 1234   /usr/bin/commentbar", true),
            ("55d0c8c00000-55d0c8e00000 r--p 00000000 fd:01 1234   /usr/bin/commentbar", true),
            ("7f0000000000-7f0000100000 r-xp 00028000 fd:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6", true),
            // A library's read-only data may be its relocated RELRO; a font file is unmapped as fonts are renewed.
            ("7f0000100000-7f0000200000 r--p 00128000 fd:01 99 /usr/lib/x86_64-linux-gnu/libc.so.6", false),
            ("7f0000300000-7f0000400000 r--p 00000000 fd:01 77 /usr/share/fonts/a.ttc", false),
            // Writable: the frame pool, the binary's data; no file: the vdso.
            ("7f0000500000-7f0000600000 rw-s 00000000 00:01 5 /memfd:commentbar-pool (deleted)", false),
            ("55d0c9000000-55d0c9100000 rw-p 00200000 fd:01 1234   /usr/bin/commentbar", false),
            ("7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0 [vdso]", false),
        ]
        for (line, qualifies) in cases {
            let mapping = try XCTUnwrap(RendererMemory.Mapping(smapsHeader: line + "\n"), line)
            XCTAssertEqual(mapping.isCodeOrExecutable(executable: executable), qualifies, line)
        }
        XCTAssertNil(RendererMemory.Mapping(smapsHeader: "Rss:                 120 kB\n"))
        XCTAssertNil(RendererMemory.Mapping(smapsHeader: "VmFlags: rd ex mr mw me sd\n"))
    }

    /// Rss of this process's code mappings (r-x) and of its executable, from /proc/self/smaps.
    private func residentCodeKiB() throws -> Int {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var total = 0, counting = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            if let mapping = RendererMemory.Mapping(smapsHeader: String(line)) {
                counting = mapping.isCodeOrExecutable(executable: executable)
            } else if counting, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }
}
