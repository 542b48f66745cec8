// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import Testing

/// A viewer's own voice (the control page's `"voice"`, `viewers set --voice`): kept in the log's
/// viewers table and put on their rows (`ChatLine.voice`), which speech reads them in.
@Suite struct ViewerVoiceTests {
    @Test func aVoiceSetForAViewerIsOnTheirNextRowsAcrossRestartsUntilCleared() async throws {
        let folder = TemporaryFolder()
        let alice = ViewerKey(channel: testChannel, user: "alice")
        var memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        var session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("1", "alice", "hi"), session: session)?.voice == nil)
        #expect(await memory.setViewer(alice, voice: .set("en+f3")) == .saved)
        #expect(memory.say(comment("2", "alice", "hi again"), session: session)?.voice == "en+f3")
        #expect(memory.say(comment("3", "bob", "hey"), session: session)?.voice == nil, "only hers")
        memory.close()

        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("4", "alice", "back"), session: session)?.voice == "en+f3", "kept in the log")
        #expect(await memory.setViewer(alice, nickname: .set("Ally")) == .saved)
        #expect(memory.say(comment("5", "alice", "named"), session: session)?.voice == "en+f3", "another choice keeps it")
        #expect(await memory.setViewer(alice, voice: .clear) == .saved)
        #expect(memory.say(comment("6", "alice", "plain"), session: session)?.voice == nil)
        memory.close()
        #expect(try ChatLog(path: folder.database).viewers(of: testChannel).first { $0.key == alice }?.voice == nil)
    }

    @Test func aVoiceSetByAnotherProcessReachesTheRunningBar() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("1", "alice", "hi"), session: session)?.voice == nil)
        #expect(memory.flush())
        // `commentbar viewers set --voice 3` while the bar runs.
        let alice = ViewerKey(channel: testChannel, user: "alice")
        try ChatLog(path: folder.database).setViewer(alice, voice: .set("3"))
        _ = memory.say(comment("2", "bob", "hey"), session: session)
        #expect(memory.flush())
        #expect(memory.say(comment("3", "alice", "hi"), session: session)?.voice == "3")
        memory.close()
        #expect(try ChatLog(path: folder.database).viewers(of: testChannel).first { $0.key == alice }?.voice == "3")
    }

    @Test func aVoiceIsOneLineOfBoundedText() async throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let alice = ViewerKey(channel: testChannel, user: "alice")
        for bad in ["en\n-v evil", "\u{7}", String(repeating: "v", count: ViewerVoice.maxScalars + 1)] {
            guard case .refused = await memory.setViewer(alice, voice: .set(bad)) else {
                Issue.record("\(String(reflecting: bad)) was kept")
                continue
            }
        }
        #expect(await memory.setViewer(alice, voice: .set("/usr/share/hts-voice/mei_normal.htsvoice")) == .saved,
                "the control: a voice file's path is kept")
        memory.close()
        #expect(throws: ChatMemoryError.self) {
            try ChatLog(path: folder.database).setViewer(alice, voice: .set("a\u{2028}b"))
        }
    }
}
