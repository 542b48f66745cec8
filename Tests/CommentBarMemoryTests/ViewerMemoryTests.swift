// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import Testing

/// The feed path's look-up on a real file: badges, nicknames, hidden viewers, counts.
@Suite struct ViewerMemoryTests {
    private func marks(_ line: ChatLine?) -> [String] { line?.marks.map(\.text) ?? ["(hidden)"] }

    @Test func firstTimeMeansFirstEverOnTheChannelAcrossSessionsAndRestarts() throws {
        let folder = TemporaryFolder()
        var memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        var session = memory.openSession(testChannel, now: now())
        #expect(marks(memory.say(comment("1", "alice", "hello"), session: session)) == ["first"])
        #expect(marks(memory.say(comment("2", "bob", "hi"), session: session)) == ["first"])
        #expect(marks(memory.say(comment("3", "alice", "again"), session: session)) == [], "once per viewer")
        memory.close()

        // The renderer restarted (OBS quit and came back): the file is opened anew.
        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: now())
        #expect(marks(memory.say(comment("4", "alice", "back again"), session: session)) == [])
        #expect(marks(memory.say(comment("5", "carol", "初見です"), session: session)) == ["first"])
        // Another channel is another audience.
        let other = ChannelRef(platform: "twitch", channel: "someoneelse")
        let otherSession = memory.openSession(other, now: now())
        #expect(marks(memory.say(comment("6", "alice", "hi"), session: otherSession, channel: other)) == ["first"])
        memory.close()

        let viewers = try ChatLog(path: folder.database).viewers(of: testChannel)
        let streams = Dictionary(uniqueKeysWithValues: viewers.map { ($0.key.user, $0.streams) })
        #expect(streams == ["alice": 2, "bob": 1, "carol": 1])
        #expect(viewers.first { $0.key.user == "alice" }?.comments == 3)
    }

    /// A 参加型 queue's "regulars only" reads how many of the channel's earlier streams each
    /// viewer wrote on: this stream never counts, whenever the log was read.
    @Test func eachRowSaysOnHowManyEarlierStreamsItsViewerWrote() {
        let folder = TemporaryFolder()
        func earlier(_ memory: ChatMemory, _ session: UInt64, _ id: String, _ user: String) -> Int? {
            memory.say(comment(id, user, "!join"), session: session)?.earlierStreams
        }
        var memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        var session = memory.openSession(testChannel, now: now())
        #expect(earlier(memory, session, "1", "alice") == 0)
        #expect(earlier(memory, session, "2", "alice") == 0, "this stream is not an earlier one")
        memory.close()

        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: now())
        #expect(earlier(memory, session, "3", "alice") == 1)
        #expect(earlier(memory, session, "4", "carol") == 0)
        #expect(earlier(memory, session, "5", "alice") == 1)
        memory.close()

        // A run whose session began before the viewer's last row (the log read after this
        // stream's rows were written): the log's count includes this stream, which is not earlier.
        let before = now() - 60
        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: before)
        #expect(earlier(memory, session, "6", "alice") == 1)
        #expect(earlier(memory, session, "7", "carol") == 0)
        memory.close()
    }

    @Test func theLabelsFollowTheSettingAndOBSLanguage() {
        #expect(RowLabels(firstTimeSetting: "", locale: "ja-JP") == RowLabels(firstTimeSetting: "初見", locale: "ja-JP"))
        #expect(RowLabels(firstTimeSetting: "", locale: "ja-JP").back == "おかえり")
        #expect(RowLabels(firstTimeSetting: "", locale: "en-US").firstTime == "first")
        #expect(RowLabels(firstTimeSetting: "", locale: nil).back == "back")
        #expect(RowLabels(firstTimeSetting: "NEW!", locale: "ja-JP").firstTime == "NEW!")
    }

    @Test func aNicknameFromChatIsKeptAndNGWordsAreRefused() throws {
        let folder = TemporaryFolder()
        var options = MemoryOptions()
        options.filters = ChatFilters(ngWords: ["badword"])
        var memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        var session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("1", "alice", "よろしく@たろう"), session: session, options: options)?.nickname == "たろう")
        #expect(memory.say(comment("2", "alice", "hello"), session: session, options: options)?.shownName == "たろう")
        #expect(memory.say(comment("3", "bob", "yo＠ＢａｄＷｏｒｄ"), session: session, options: options)?.nickname == nil,
                "an NG word (folded) is no nickname")
        #expect(memory.say(comment("4", "carol", "gg @streamer"), session: session, options: options)?.nickname == nil,
                "a mention is no nickname")
        var off = options
        off.nicknamesFromChat = false
        #expect(memory.say(comment("5", "dave", "hi@dave2"), session: session, options: off)?.nickname == nil)
        memory.close()

        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("6", "alice", "ただいま"), session: session, options: options)?.nickname == "たろう")
        #expect(memory.say(comment("7", "bob", "hey"), session: session, options: options)?.nickname == nil)
        memory.close()
    }

    @Test func aHiddenViewerIsNotShownButLoggedAsHidden() async throws {
        let folder = TemporaryFolder()
        var memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        var session = memory.openSession(testChannel, now: now())
        let troll = ViewerKey(channel: testChannel, user: "troll")
        await memory.setViewer(troll, hidden: true)
        #expect(memory.say(comment("1", "troll", "spam spam"), session: session) == nil)
        #expect(memory.say(comment("2", "alice", "hello"), session: session) != nil)
        memory.close()

        memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("3", "troll", "still here"), session: session) == nil, "hidden across restarts")
        await memory.setViewer(troll, hidden: false)
        #expect(memory.say(comment("4", "troll", "ok sorry"), session: session) != nil)
        memory.close()
        let rows = try ChatLog(path: folder.database).search(ChatQuery(text: "spam"))
        #expect(rows.map(\.verdict) == ["hidden"])
    }

    @Test func aChoiceMadeOnTheControlPageReachesTheViewersNextRow() async {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("1", "alice", "hi"), session: session)?.nickname == nil)
        let red = RGBColor(red: 255, green: 0, blue: 0)
        await memory.setViewer(ViewerKey(channel: testChannel, user: "Alice"), nickname: .set("Boss"), colour: .set(red))
        let next = memory.say(comment("2", "alice", "hi again"), session: session)
        #expect(next?.shownName == "Boss")
        #expect(next?.color == red)
        await memory.setViewer(ViewerKey(channel: testChannel, user: "alice"), nickname: .clear)
        #expect(memory.say(comment("3", "alice", "and again"), session: session)?.shownName == "Alice")
        memory.close()
    }

    @Test func aChoiceMadeByAnotherProcessReachesTheRunningBar() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        #expect(memory.say(comment("1", "alice", "hi"), session: session)?.nickname == nil)
        #expect(memory.flush())
        // `commentbar viewers set` while the bar runs.
        try ChatLog(path: folder.database).setViewer(ViewerKey(channel: testChannel, user: "alice"), nickname: .set("Ally"))
        // The writer notices the other connection's commit after its next write.
        _ = memory.say(comment("2", "bob", "hey"), session: session)
        #expect(memory.flush())
        #expect(memory.say(comment("3", "alice", "hi"), session: session)?.nickname == "Ally")
        memory.close()
    }

    @Test func backAfterWelcomeBackDaysAndTheCommentNumber() throws {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        let longAgo = now() - 40 * 86_400
        _ = memory.say(comment("1", "alice", "hello"), session: session, at: longAgo)
        _ = memory.say(comment("2", "bob", "hello"), session: session, at: now() - 5 * 86_400)
        _ = memory.say(comment("3", "dave", "hello"), session: session, at: longAgo)
        memory.close()

        let later = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let again = later.openSession(testChannel, now: now())
        var options = MemoryOptions(labels: RowLabels(firstTimeSetting: "", locale: "ja"), welcomeBackDays: 30, showCounts: true)
        #expect(marks(later.say(comment("4", "alice", "ただいま"), session: again, options: options)) == ["おかえり", "#2"])
        #expect(marks(later.say(comment("5", "alice", "元気？"), session: again, options: options)) == ["#3"])
        #expect(marks(later.say(comment("6", "bob", "yo"), session: again, options: options)) == ["#2"], "5 days is not long")
        options.welcomeBackDays = 0
        options.showCounts = false
        #expect(marks(later.say(comment("7", "dave", "hi"), session: again, options: options)) == [], "0 turns it off")
        later.close()
    }

    @Test func historyAndRowsTheFiltersHideNeverBadgeButTwitchsFirstMessageDoes() {
        let folder = TemporaryFolder()
        var options = MemoryOptions()
        options.filters = ChatFilters(hideCommands: true)
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let session = memory.openSession(testChannel, now: now())
        #expect(marks(memory.say(comment("1", "alice", "said before we joined", history: true), session: session, options: options)) == [])
        #expect(marks(memory.say(comment("2", "bob", "!uptime"), session: session, options: options)) == [],
                "a row the bar hides")
        #expect(marks(memory.say(comment("3", "bob", "hello"), session: session, options: options)) == ["first"],
                "the badge waits for the first row shown")
        #expect(marks(memory.say(comment("4", "alice", "now live"), session: session, options: options)) == ["first"],
                "history is not a first comment")
        memory.close()

        // Known to the log, but Twitch says first-msg: the platform's word counts.
        let again = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let next = again.openSession(testChannel, now: now())
        #expect(marks(again.say(comment("5", "bob", "hi", platformFirst: true), session: next, options: options)) == ["first"])
        again.close()
        #expect(marks(MemoryRun.withoutMemory(.comment(comment("6", "x", "y", platformFirst: true)), options).line) == ["first"],
                "with remember off too")
    }

    @Test func theBarStartsWithTheChannelsLastRowsAfterARestartMinutesAgo() {
        let folder = TemporaryFolder()
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        // The bar's filters (hide_commands on), as MemoryHook sets them.
        memory.setFilters(ChatFilters())
        let session = memory.openSession(testChannel, now: now())
        for number in 1...5 { _ = memory.say(comment("\(number)", "alice", "line \(number)"), session: session) }
        _ = memory.say(comment("6", "troll", "!command"), session: session, options: MemoryOptions(filters: ChatFilters()))
        memory.close()

        let next = ChatMemory(path: folder.database, log: CapturedLog().logger)
        #expect(eventually { !next.history(of: testChannel, limit: 3, now: now()).isEmpty })
        let history = next.history(of: testChannel, limit: 3, now: now())
        #expect(history.map(\.text) == ["line 3", "line 4", "line 5"], "a row the filters hid is not history")
        #expect(history.allSatisfy { $0.isHistory })
        #expect(next.history(of: testChannel, limit: 3, now: now() + 11 * 60).isEmpty, "not after 10 minutes")
        next.close()
    }
}

private extension FeedEvent {
    var line: ChatLine? {
        if case .comment(let line) = self { return line }
        return nil
    }
}
