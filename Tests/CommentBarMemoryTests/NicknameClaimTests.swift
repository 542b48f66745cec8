// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarTestSupport
import Testing

/// A nickname taken in chat (`text@name`) cannot pass its writer off as someone else, cannot
/// smuggle an NG word, and cannot outlive a moderator's removal of its row. Each refusal has its
/// control: a fair nickname in the same place is taken.
@Suite struct NicknameClaimTests {
    let folder = TemporaryFolder()

    private func open() -> (ChatMemory, UInt64) {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        return (memory, memory.openSession(testChannel, now: now()))
    }

    private func nickname(_ user: String) throws -> String? {
        try ChatLog(path: folder.database).viewers(of: testChannel).first { $0.key.user == user }?.nickname
    }

    /// `testChannel` is twitch:streamer: the streamer's own account.
    @Test func theChannelsOwnNameIsRefused() {
        let (memory, session) = open()
        #expect(memory.say(comment("1", "alice", "great stream@Streamer"), session: session)?.nickname == nil)
        #expect(memory.say(comment("2", "alice", "great stream＠ＳＴＲＥＡＭＥＲ"), session: session)?.nickname == nil,
                "folded as the NG words fold")
        #expect(memory.say(comment("3", "alice", "great stream@TheFan"), session: session)?.nickname == "TheFan")
        memory.close()
    }

    @Test func theAddressTheBarWasGivenIsReservedToo() {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let channel = ChannelRef(platform: "youtube", channel: "UCabcdefghijklmnopqrstuv")
        let session = memory.openSession(channel, now: now())
        func say(_ id: String, _ text: String) -> String? {
            memory.receive(comment(id, "alice", text), session: session, channel: channel, options: MemoryOptions(), now: now(),
                           reserved: ["somehandle"])?.nickname
        }
        #expect(say("1", "hi@SomeHandle") == nil)
        #expect(say("2", "hi@someone") == "someone")
        memory.close()
    }

    @Test func anotherViewersNameOrLoginIsRefusedTheirOwnIsNot() {
        let (memory, session) = open()
        _ = memory.say(ChatLine(id: "1", user: "Bobby", login: "bob", text: "hello"), session: session)
        var moderator = ChatLine(id: "2", user: "ModMika", login: "mika_mod", text: "be nice", badges: ["moderator"])
        moderator.platform = "twitch"
        _ = memory.say(moderator, session: session)
        #expect(memory.say(comment("3", "alice", "ok＠Bobby"), session: session)?.nickname == nil, "a display name")
        #expect(memory.say(comment("4", "alice", "ok@bob"), session: session)?.nickname == nil, "a login")
        #expect(memory.say(comment("5", "alice", "ok＠ｍｏｄｍｉｋａ"), session: session)?.nickname == nil, "a moderator's name")
        #expect(memory.say(comment("6", "alice", "ok＠Alicia"), session: session)?.nickname == "Alicia")
        #expect(memory.say(comment("7", "alice", "me＠ALICE"), session: session)?.nickname == "ALICE", "one's own name")
        memory.close()
    }

    /// A viewer known only from the log (an earlier stream), not seen in this run.
    @Test func aViewerOfAnEarlierStreamIsStillSomeoneElse() {
        var (memory, session) = open()
        _ = memory.say(ChatLine(id: "1", user: "Bobby", login: "bob", text: "hello"), session: session)
        memory.close()
        (memory, session) = open()
        #expect(memory.say(comment("2", "alice", "ok＠BOBBY"), session: session)?.nickname == nil)
        #expect(memory.say(comment("3", "alice", "ok＠Robert"), session: session)?.nickname == "Robert")
        memory.close()
    }

    @Test func onlyARowTheFiltersShowSetsOne() throws {
        let (memory, session) = open()
        let options = MemoryOptions(filters: ChatFilters(hideCommands: true))
        #expect(memory.say(comment("1", "alice", "!sr song@sneaky"), session: session, options: options)?.nickname == nil)
        #expect(memory.say(comment("2", "alice", "hello"), session: session, options: options)?.nickname == nil,
                "a hidden command set nothing")
        #expect(memory.say(comment("3", "bob", "song@sneaky"), session: session, options: options)?.nickname == "sneaky")
        memory.close()
        #expect(try nickname("alice") == nil)
        #expect(try nickname("bob") == "sneaky")
    }

    @Test func aDeletionOrABanUndoesTheNicknameItsRowSet() throws {
        var (memory, session) = open()
        #expect(memory.say(comment("1", "alice", "hi@たろう"), session: session)?.nickname == "たろう")
        #expect(memory.say(comment("2", "alice", "scam link here@じろう"), session: session)?.nickname == "じろう")
        _ = memory.say(comment("3", "alice", "a plain row"), session: session)
        memory.delete(messageID: "3", session: session, channel: testChannel, now: now())
        #expect(memory.say(comment("4", "alice", "still me"), session: session)?.nickname == "じろう",
                "the control: deleting a row that set nothing changes nothing")
        memory.delete(messageID: "2", session: session, channel: testChannel, now: now())
        #expect(memory.say(comment("5", "alice", "and now"), session: session)?.nickname == "たろう", "back to the one before")
        memory.close()
        #expect(try nickname("alice") == "たろう", "the log undid it too")

        (memory, session) = open()
        #expect(memory.say(comment("6", "bob", "yo@ボブ"), session: session)?.nickname == "ボブ")
        memory.deleteMessages(ofUser: "Bob", session: session, channel: testChannel, now: now())
        #expect(memory.say(comment("7", "bob", "back after the timeout"), session: session)?.nickname == nil)
        memory.close()
        #expect(try nickname("bob") == nil)
        #expect(try nickname("alice") == "たろう", "the control: another viewer's ban leaves alice's")
    }

    /// A renderer started after the nickname was set (it knows the row only from the log): the
    /// writer undoes it, and the bar reads the viewer again.
    @Test func aDeletionAfterARestartUndoesItFromTheLog() throws {
        var (memory, session) = open()
        #expect(memory.say(comment("1", "alice", "hi@たろう"), session: session)?.nickname == "たろう")
        memory.close()
        (memory, session) = open()
        #expect(memory.say(comment("2", "alice", "back"), session: session)?.nickname == "たろう")
        memory.delete(messageID: "1", session: session, channel: testChannel, now: now())
        #expect(memory.flush())
        #expect(memory.say(comment("3", "alice", "again"), session: session)?.nickname == nil)
        memory.close()
    }

    @Test func theSanitizedFormIsStored() throws {
        let (memory, session) = open()
        #expect(memory.say(comment("1", "alice", "hi@\u{200F}たろう\u{200E}"), session: session)?.nickname == "たろう")
        memory.close()
        #expect(try nickname("alice") == "たろう")
    }

    /// The NG words as they are now apply wherever the memory hands a nickname out: the control
    /// page's answers and the exports (the bar's rows: `NicknameFilterTests`).
    @Test func anNGWordAddedLaterMasksTheNicknameOnThePageAndInExports() async throws {
        let (memory, session) = open()
        let start = now() - 60
        memory.recordingStarted(at: start)
        #expect(memory.say(comment("1", "alice", "hello@scammer"), session: session)?.nickname == "scammer")
        #expect(memory.say(comment("2", "bob", "hi@たろう"), session: session)?.nickname == "たろう")
        memory.setFilters(ChatFilters(ngWords: ["scam"]))
        #expect(memory.flush())
        let found = try await memory.search(ChatQuery(text: "hello"))
        #expect(found.map(\.nickname) == ["＊＊＊＊mer"])
        #expect(try await memory.search(ChatQuery(text: "hi")).map(\.nickname) == ["たろう"], "the control")
        memory.close()

        let log = try ChatLog(path: folder.database)
        var csv = ""
        try log.export(try log.session("latest"), format: .csv) { csv += $0 }
        // The nickname cell (the text cell keeps what the viewer wrote, as the log does).
        #expect(csv.contains(",alice,Alice,＊＊＊＊mer,comment,") && !csv.contains(",scammer,"))
        #expect(csv.contains(",bob,Bob,たろう,comment,"))
        var srt = ""
        try log.export(try log.session("latest"), format: .srt) { srt += $0 }
        #expect(srt.contains("＊＊＊＊mer: hello@＊＊＊＊mer"), "as the bar shows the row now")
        #expect(srt.contains("たろう: hi@たろう"))
        #expect(try log.viewers(of: testChannel).first { $0.key.user == "alice" }?.nickname == "＊＊＊＊mer")
    }

    @Test func withNGWordsSetToHideTheSubtitlesLeaveSuchARowOut() throws {
        let (memory, session) = open()
        memory.recordingStarted(at: now() - 60)
        _ = memory.say(comment("1", "alice", "hello@scammer"), session: session)
        _ = memory.say(comment("2", "bob", "hi@たろう"), session: session)
        memory.setFilters(ChatFilters(ngWords: ["scam"], ngMode: .hide))
        memory.close()
        let log = try ChatLog(path: folder.database)
        var srt = ""
        try log.export(try log.session("latest"), format: .srt) { srt += $0 }
        #expect(!srt.contains("mer:"))
        #expect(srt.contains("たろう: hi@たろう"), "the control")
    }
}
