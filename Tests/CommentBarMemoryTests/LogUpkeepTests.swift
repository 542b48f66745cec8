// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarTestSupport
import Foundation
import Testing

/// `log_max_mb` and `log_keep_days` on a generated log: the oldest messages go, the viewers stay,
/// the file shrinks, and the status line says so once.
@Suite struct LogUpkeepTests {
    let folder = TemporaryFolder()

    /// `generate`, off the cooperative pool: writing thousands of rows takes seconds.
    private func generating(_ count: Int, age: Double) async throws {
        let folder = self.folder
        try await offThePool { try Self.generate(count, age: age, into: folder) }
    }

    /// A log of `count` comments of 200 characters by 500 viewers, one a second, the first
    /// `age` seconds ago; written straight into the store (the writer's rate is not the point).
    private static func generate(_ count: Int, age: Double, into folder: TemporaryFolder) throws {
        let store = try ChatStore(path: folder.database)
        let start = now() - age
        let session = try store.openSession(testChannel, at: start)
        var number = 0
        while number < count {
            try store.connection.transaction { () throws(SQLiteError) in
                for _ in 0..<min(5_000, count - number) {
                    number += 1
                    let text = "comment \(number) " + String(repeating: "ラーメン食べたい、", count: 20)
                    let record = MessageRecord(session: 0, line: comment("g\(number)", "viewer\(number % 500)", text),
                                               time: start + Double(number) * age / Double(count), hiddenByMemory: false,
                                               firstTime: false, nicknameFromChat: nil)
                    try store.insert(record, in: session, verdict: .shown)
                }
            }
        }
        _ = try store.connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private func fileSize() -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: folder.database + suffix)[.size] as? Int) ?? 0)
        }
    }

    private func stored() throws -> [LoggedMessage] { try CrashDurabilityTests.all(ChatReader(path: folder.database)) }

    @Test func theSizeCapRemovesTheOldestMessagesAndKeepsTheViewers() async throws {
        try await generating(20_000, age: 3_600)
        let before = fileSize()
        try #require(before > 4 * 1_048_576, "the generated log is \(before) bytes")
        let log = CapturedLog()
        let memory = ChatMemory(path: folder.database, log: log.logger)
        memory.setLimits(LogLimits(keepDays: 0, maxMegabytes: 2))
        #expect(await waitUntil(60) { memory.problem?.contains("oldest comments were removed") == true }, "said on the bar")
        memory.close()
        let after = fileSize()
        #expect(after <= 2 * 1_048_576, "\(before) bytes before, \(after) after")
        let kept = try stored()
        #expect(!kept.isEmpty && kept.count < 20_000)
        #expect(kept.last?.messageID == "g20000", "the newest stay")
        #expect(kept.first.map { $0.messageID != "g1" } == true, "the oldest go first")
        #expect(try ChatLog(path: folder.database).viewers(of: testChannel).count == 500, "every viewer stays")
        #expect(try ChatLog(path: folder.database).integrityCheck() == "ok")
        #expect(log.messages.filter { $0.contains("oldest comments were removed") }.count == 1, "said once")
    }

    @Test func withoutACapNothingGoes() async throws {
        try await generating(5_000, age: 3_600)
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        memory.setLimits(LogLimits(keepDays: 0, maxMegabytes: 0))
        await pause(LogUpkeep.firstDelay + 1.5)
        memory.close()
        #expect(try stored().count == 5_000)
    }

    @Test func messagesOlderThanKeepDaysGo() async throws {
        try await generating(4_000, age: 40 * 86_400)
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        memory.setLimits(LogLimits(keepDays: 30, maxMegabytes: 0))
        #expect(await waitUntil(20) { ((try? stored().count) ?? 4_000) < 4_000 })
        await pause(0.5)
        #expect(memory.problem == nil, "age alone is no news for the bar")
        memory.close()
        let kept = try stored()
        // 30 of 40 days: about three quarters stay.
        #expect((2_900...3_100).contains(kept.count), "\(kept.count) kept")
        #expect(kept.allSatisfy { $0.time >= now() - 30 * 86_400 - 60 })
    }
}
