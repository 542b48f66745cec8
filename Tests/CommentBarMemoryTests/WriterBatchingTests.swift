// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import Foundation
import Testing

/// The writer gathers a chat's comments into few transactions (each commit costs the pages it
/// touches: issue 31's renderer CPU at 10 comments/s), and a flush or a stop still writes
/// everything at once.
@Suite struct WriterBatchingTests {
    let folder = TemporaryFolder()

    /// A log in the test's folder with one session open on `testChannel`.
    func open() -> (ChatMemory, session: UInt64) {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        return (memory, memory.openSession(testChannel, now: now()))
    }

    /// Ten comments 20 ms apart (a 50 comments/s chat) are one commit, not one per 100 ms.
    @Test func commentsWithinTheWindowAreOneTransaction() async throws {
        let (memory, session) = open()
        for number in 1...10 {
            _ = memory.say(comment("b\(number)", "viewer\(number % 3)", "batched \(number)"), session: session)
            usleep(20_000)  // a blocking wait on purpose: a suspended one may sleep past the window
        }
        #expect(await waitUntil(3) { memory.transactions > 0 && memory.backlog == 0 })
        #expect(memory.transactions == 1, "\(memory.transactions) transactions for 10 comments in 0.2 s")
        memory.close()
        #expect(try ChatLog(path: folder.database).search(ChatQuery(text: "batched")).count == 10)
    }

    /// A flush (the control page's viewer choices wait for one) does not wait out the window.
    @Test func aFlushWritesTheBatchAtOnce() async throws {
        let (memory, session) = open()
        _ = memory.say(comment("f1", "alice", "flushed now"), session: session)
        #expect(memory.flush(timeout: MemoryWriter.batchWindow * 0.8), "committed before the window ended")
        let reader = try ChatReader(path: folder.database)
        #expect(try reader.recent(after: 0, limit: 10).map(\.messageID) == ["f1"])
        memory.close()
    }

    /// A backlog is written a full batch at a time as soon as one is queued, not one window's
    /// worth per window (`commentbar bench-memory`'s insert rate halved with the 0.5 s window).
    @Test func aFullBatchEndsTheWindow() async throws {
        let (memory, session) = open()
        let count = MemoryWriter.fullBatch * 3
        for number in 1...count {
            _ = memory.say(comment("q\(number)", "viewer\(number % 17)", "queued \(number)"), session: session)
        }
        #expect(await waitUntil(30) { memory.backlog == 0 })
        #expect(memory.transactions >= 2, "\(memory.transactions) transaction(s) for \(count) comments queued at once")
        memory.close()
        let stored = try CrashDurabilityTests.all(ChatReader(path: folder.database))
        #expect(stored.count == count)
    }

    /// A normal stop (stdin closed, the log's path changed) keeps every comment received, the
    /// batch being gathered included.
    @Test func aStopKeepsEveryComment() async throws {
        let (memory, session) = open()
        for number in 1...300 {
            _ = memory.say(comment("s\(number)", "viewer\(number % 11)", "kept \(number)"), session: session)
        }
        memory.close()
        let stored = try CrashDurabilityTests.all(ChatReader(path: folder.database))
        #expect(Set(stored.map(\.messageID)) == Set((1...300).map { "s\($0)" }))
    }
}
