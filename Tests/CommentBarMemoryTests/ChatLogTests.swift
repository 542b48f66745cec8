// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import Foundation
import Testing

/// What the log keeps, on real files: one row per message, moderation, search, export.
@Suite struct ChatLogTests {
    @Test func twoSourcesOnOneChannelWriteOneRowPerMessage() throws {
        let folder = TemporaryFolder()
        let first = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let second = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let a = first.openSession(testChannel, now: now())
        #expect(first.flush())
        let b = second.openSession(testChannel, now: now())
        for number in 1...200 {
            let line = comment("msg\(number)", "viewer\(number % 7)", "comment \(number)")
            _ = first.say(line, session: a)
            _ = second.say(line, session: b)
        }
        first.close()
        second.close()
        let log = try ChatLog(path: folder.database)
        #expect(try log.search(ChatQuery(text: "comment")).count == 200)
        let viewers = try log.viewers(of: testChannel)
        #expect(viewers.count == 7)
        #expect(viewers.map(\.comments).reduce(0, +) == 200, "each message counted once")
        #expect(viewers.allSatisfy { $0.streams == 1 }, "two sources at once are one stream")
        #expect(try log.integrityCheck() == "ok")
    }

    @Test func idsAPlatformNumbersPerConnectionAreKeptInTheNextStream() throws {
        let folder = TemporaryFolder()
        for text in ["first stream", "second stream"] {
            let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
            let session = memory.openSession(ChannelRef(platform: "showroom", channel: "room"), now: now())
            _ = memory.say(comment("sr-c1", "alice", text), session: session, channel: ChannelRef(platform: "showroom", channel: "room"))
            memory.close()
        }
        #expect(try ChatLog(path: folder.database).search(ChatQuery(text: "stream")).count == 2)
    }

    @Test func aDeletionOrABanRemovesTheTextFromTheLogAndItsIndex() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        _ = memory.say(comment("1", "alice", "secret address 123"), session: session)
        _ = memory.say(comment("2", "alice", "a normal line"), session: session)
        _ = memory.say(comment("3", "troll", "awful slur here"), session: session)
        _ = memory.say(comment("4", "troll", "more awful stuff"), session: session)
        memory.delete(messageID: "1", session: session, channel: testChannel, now: now())
        memory.deleteMessages(ofUser: "Troll", session: session, channel: testChannel, now: now())
        memory.close()

        let log = try ChatLog(path: folder.database)
        #expect(try log.search(ChatQuery(text: "secret")).isEmpty)
        #expect(try log.search(ChatQuery(text: "awful")).isEmpty)
        #expect(try log.search(ChatQuery(text: "normal")).count == 1)
        let reader = try ChatReader(path: folder.database)
        let rows = try reader.recent(after: 0, limit: 10)
        #expect(rows.filter(\.deleted).map(\.messageID) == ["1", "3", "4"])
        #expect(rows.filter(\.deleted).allSatisfy { $0.text == nil }, "the text is gone, not hidden")
        // Nothing of the text is left in the full-text index either.
        let indexed = try reader.connection.scalarInt("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '\"awful\"'")
        #expect(indexed == 0)
    }

    @Test func searchFindsTwoCharacterAndLongerJapaneseWordsInsideSentencesAndEnglishWords() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        let lines = ["初見です！よろしく", "今日は神回だった", "今日はラーメン食べた", "I want PIZZA tonight", "草", "通常のコメント"]
        for (number, text) in lines.enumerated() { _ = memory.say(comment("\(number)", "viewer\(number)", text), session: session) }
        _ = memory.say(comment("old", "alice", "昨日も初見さんが来た"), session: session, at: now() - 10 * 86_400)
        memory.close()

        let log = try ChatLog(path: folder.database)
        func texts(_ query: ChatQuery) throws -> [String] { try log.search(query).compactMap(\.text) }
        #expect(try Set(texts(ChatQuery(text: "初見"))) == ["初見です！よろしく", "昨日も初見さんが来た"])
        #expect(try texts(ChatQuery(text: "神回")) == ["今日は神回だった"])
        #expect(try texts(ChatQuery(text: "ラーメン")) == ["今日はラーメン食べた"])
        #expect(try texts(ChatQuery(text: "よろしく")) == ["初見です！よろしく"])
        #expect(try texts(ChatQuery(text: "pizza")) == ["I want PIZZA tonight"], "ASCII case is ignored")
        #expect(try texts(ChatQuery(text: "草")) == ["草"])
        #expect(try texts(ChatQuery(text: "初見", since: now() - 86_400)) == ["初見です！よろしく"])
        #expect(try texts(ChatQuery(text: "初見", user: "alice")) == ["昨日も初見さんが来た"])
        #expect(try texts(ChatQuery(text: "初見", channel: ChannelRef(platform: "kick", channel: "x"))).isEmpty)
        #expect(try log.search(ChatQuery(text: "今日は")).count == 2)
        #expect(try log.search(ChatQuery(text: "今日は", limit: 1)).count == 1)
        #expect(try texts(ChatQuery(text: "\"quoted\" OR x")).isEmpty, "FTS syntax in the text is just text")
    }

    @Test func aDamagedFileIsMovedAsideNeverDeletedAndANewOneWorks() throws {
        let folder = TemporaryFolder()
        let garbage = Data(repeating: 0x41, count: 8192)
        #expect(FileManager.default.createFile(atPath: folder.database, contents: garbage))
        let log = CapturedLog()
        let memory = ChatMemory(path: folder.database, log: log.logger)
        let session = memory.openSession(testChannel, now: now())
        #expect(eventually { memory.problem != nil })
        #expect(memory.problem?.contains("damaged") == true)
        _ = memory.say(comment("1", "alice", "after the damage"), session: session)
        memory.close()

        let aside = folder.files().filter { $0.hasPrefix("chat.sqlite3.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        #expect(aside.count == 1)
        #expect(FileManager.default.contents(atPath: folder.path + "/" + (aside.first ?? "")) == garbage, "kept as it was")
        #expect(log.lines.filter { $0.contains("damaged") }.count == 1, "one log line")
        let fresh = try ChatLog(path: folder.database)
        #expect(try fresh.integrityCheck() == "ok")
        #expect(try fresh.search(ChatQuery(text: "damage")).count == 1)
    }

    @Test func aFolderThatCannotBeWrittenIsAStatusTextNotACrash() async throws {
        // Root writes anywhere a mode allows nothing: sysfs refuses even root.
        let folder = TemporaryFolder()
        let locked = geteuid() == 0 ? "/sys/kernel" : folder.path + "/locked"
        if geteuid() != 0 {
            mkdir(locked, 0o700)
            chmod(locked, 0o555)
        }
        let log = CapturedLog()
        let memory = ChatMemory(path: locked + "/chat.sqlite3", log: log.logger)
        let session = memory.openSession(testChannel, now: now())
        let shown = memory.say(comment("1", "alice", "hello"), session: session)
        #expect(shown?.text == "hello", "the bar keeps its rows")
        #expect(shown?.marks == [], "no badge the log cannot back")
        #expect(eventually { memory.problem != nil })
        #expect(memory.problem == "chat log: cannot write its file; comments are not saved")
        for number in 2...20 { _ = memory.say(comment("\(number)", "bob", "more"), session: session) }
        #expect(memory.flush())
        memory.close()
        #expect(log.lines.filter { $0.contains("cannot write") }.count == 1, "one log line, not one per comment")
        #expect((try? await memory.search(ChatQuery(text: "hello"))) == nil)
    }

    @Test func subtitlesAreTimedToOBSsRecording() async throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let start = now() - 100
        let session = memory.openSession(testChannel, now: start)
        let recording = start + 10
        memory.recordingStarted(at: recording)
        _ = memory.say(comment("0", "alice", "before the recording"), session: session, at: recording - 2)
        _ = memory.say(comment("1", "alice", "hello {\\b1}world"), session: session, at: recording + 1.5)
        await memory.setViewer(ViewerKey(channel: testChannel, user: "bob"), nickname: .set("ボブ"))
        _ = memory.say(comment("2", "bob", "こんにちは"), session: session, at: recording + 62.25)
        memory.close()

        let log = try ChatLog(path: folder.database)
        let chosen = try log.session("latest")
        #expect(chosen.recordingStart == recording)
        var srt = ""
        try log.export(chosen, format: .srt) { srt += $0 }
        #expect(srt == """
            1
            00:00:01,500 --> 00:00:06,500
            Alice: hello ｛⧵b1｝world

            2
            00:01:02,250 --> 00:01:07,250
            ボブ: こんにちは


            """)
        var ass = ""
        try log.export(chosen, format: .ass) { ass += $0 }
        #expect(ass.contains("Dialogue: 0,0:00:01.50,0:00:06.50,Default,,0,0,0,,Alice: hello \\{⧵b1\\}world\n"))
    }

    @Test func withoutARecordingSubtitlesCountFromTheSessionsStart() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let start = now() - 100
        let session = memory.openSession(testChannel, now: start)
        _ = memory.say(comment("1", "alice", "=cmd|' /C calc'!A0"), session: session, at: start + 3)
        memory.close()
        let log = try ChatLog(path: folder.database)
        var srt = ""
        try log.export(try log.session("latest"), format: .srt) { srt += $0 }
        #expect(srt.hasPrefix("1\n00:00:03,000 --> 00:00:08,000\n"))
        var csv = ""
        try log.export(try log.session("latest"), format: .csv) { csv += $0 }
        #expect(csv.contains(",comment,'=cmd|' /C calc'!A0,"), "a formula a viewer wrote is not run by a spreadsheet")
        #expect(throws: ChatMemoryError.self) { _ = try log.session("99") }
    }
}
