// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarSupport
import CommentBarTestSupport
import Foundation
import Testing

/// kill -9 of a process writing 1,000 comments a second: the file opens cleanly after, and every
/// comment it had received more than three batch windows (`MemoryWriter.batchWindow`, 500 ms: what
/// the writer promises is a commit each window) before it last ran is in it. Its own last line is
/// the clock, not the moment of the kill: under make check's load the helper can be kept off the
/// CPU for a while before the kill comes. (Two windows, against the kill's time, failed once in a
/// clean clone's make check: 58 comments 1.06 s old were missing.)
@Suite struct CrashDurabilityTests {
    /// The helper target's program, built beside this test bundle.
    static var helper: String? {
        let bundle = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                         ?? CommandLine.arguments[0])
        let candidate = bundle.deletingLastPathComponent().appendingPathComponent("commentbar-memory-crash-helper").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    @Test func killNineLosesOnlyTheLastBatches() async throws {
        let helper = try #require(Self.helper, "commentbar-memory-crash-helper is built beside the tests (make swift-tests)")
        let folder = TemporaryFolder()
        let received = folder.path + "/received.txt"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: helper)
        child.arguments = [folder.database, received, "1000"]
        try child.run()
        // Long enough for several commits and a few thousand comments.
        await pause(3.5)
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)

        let lines = (try String(contentsOfFile: received, encoding: .utf8)).split(separator: "\n")
        let sent = lines.compactMap { line -> (id: String, time: Double)? in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let time = Double(parts[1]) else { return nil }
            return ("m\(parts[0])", time)
        }
        #expect(sent.count > 1500, "the helper wrote \(sent.count) comments before the kill")
        let lastRan = sent.map(\.time).max() ?? 0
        let margin = 3 * MemoryWriter.batchWindow.inSeconds
        let older = sent.filter { $0.time < lastRan - margin }.map(\.id)

        let log = try ChatLog(path: folder.database)
        #expect(try log.integrityCheck() == "ok")
        let reader = try ChatReader(path: folder.database)
        let stored = Set(try Self.all(reader).map(\.messageID))
        let missing = older.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(older.count) comments older than \(margin) s are missing: \(missing.prefix(5))")
    }

    static func all(_ reader: ChatReader) throws -> [LoggedMessage] {
        var rows: [LoggedMessage] = []
        var after: Int64 = 0
        while true {
            let page = try reader.recent(after: after, limit: 1000)
            guard let last = page.last else { return rows }
            rows += page
            after = last.seq
        }
    }
}
