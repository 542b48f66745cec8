// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarTestSupport
import Foundation
import Testing

/// Another program holds the log's write lock (a `commentbar log prune`, a database browser): the
/// control page's choice is answered when its time is up, the bar keeps it, and
/// no comment is lost once the lock goes.
@Suite struct WriterLockTests {
    let folder = TemporaryFolder()

    @Test func aLockedLogHoldsTheCommentsAndAChoiceIsAnsweredInTime() async throws {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        _ = memory.say(comment("1", "alice", "before the lock"), session: session)
        #expect(memory.flush())

        let other = try SQLiteConnection(path: folder.database, mode: .readWrite)
        try other.execute("BEGIN IMMEDIATE")
        _ = memory.say(comment("2", "bob", "while locked"), session: session)
        // Answered when its time is up (that it holds no thread meanwhile, the frame loop's
        // threads least of all: Tests/memory/memory_freeze_test.py).
        let change = await memory.setViewer(ViewerKey(channel: testChannel, user: "alice"), nickname: .set("Ally"),
                                            timeout: .milliseconds(500))
        if case .notSaved = change {} else { Issue.record("a locked log saved it: \(change)") }
        #expect(memory.say(comment("3", "alice", "the bar has it"), session: session)?.nickname == "Ally")
        // Past the writer's busy timeout (5 s): the batch is held, and the bar says why.
        #expect(await waitUntil(10) { memory.problem == LogProblem.busy })
        try other.execute("COMMIT")

        #expect(memory.flush(timeout: .seconds(15)), "written once the lock went")
        #expect(await waitUntil(5) { memory.problem == nil })
        memory.close()
        let stored = try CrashDurabilityTests.all(ChatReader(path: folder.database)).map(\.messageID)
        #expect(stored == ["1", "2", "3"], "nothing lost")
        #expect(try ChatLog(path: folder.database).viewers(of: testChannel).first { $0.key.user == "alice" }?.nickname == "Ally")
    }
}
