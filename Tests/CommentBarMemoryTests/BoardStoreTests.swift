// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarCore
import CommentBarTestSupport
import Testing

/// The boards' records (issue 48) through the memory's writer into a real SQLite file and back:
/// what a restarted renderer restores, and what `commentbar poll` and `giveaway` read.
@Suite struct BoardStoreTests {
    let folder = TemporaryFolder()
    let alice = ViewerKey(platform: "twitch", channel: "streamer", user: "alice")
    let bob = ViewerKey(platform: "youtube", channel: "UCstreamer", user: "bob")
    let carol = ViewerKey(platform: "twitch", channel: "streamer", user: "carol")

    func poll(source: String = "11190", token: Int64 = 7, closedAt: Double? = nil, dismissed: Bool = false) -> SavedPoll {
        SavedPoll(token: token, source: source, question: "次はどれ？", options: ["ラーメン", "Sushi", "カレー"], revote: "latest",
                  bareNumbers: true, openedAt: 1000.25, closesAt: 1060.25, closedAt: closedAt, dismissed: dismissed)
    }

    /// Writes `records` through a memory's writer, and closes it (everything on disk).
    func write(_ records: [BoardRecord]) {
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        for record in records { memory.keep(record) }
        memory.close()
    }

    @Test func aPollComesBackWithItsBallotsAndStaysInTheHistory() async throws {
        write([
            .poll(poll()),
            .ballot(poll: 7, SavedBallot(voter: alice, option: 0, at: 1001)),
            .ballot(poll: 7, SavedBallot(voter: bob, option: 2, at: 1002)),
            .ballot(poll: 7, SavedBallot(voter: carol, option: 2, at: 1003)),
            // Alice moved her vote (`latest` replaces): one ballot for her account.
            .ballot(poll: 7, SavedBallot(voter: alice, option: 1, at: 1004)),
            // A ballot for a poll this file never had writes nothing.
            .ballot(poll: 99, SavedBallot(voter: alice, option: 0, at: 1005)),
        ])
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let saved = try await memory.savedBoards(of: "11190")
        memory.close()
        var expected = poll()
        expected.ballots = [SavedBallot(voter: bob, option: 2, at: 1002), SavedBallot(voter: carol, option: 2, at: 1003),
                            SavedBallot(voter: alice, option: 1, at: 1004)]
        expected.id = 1
        #expect(saved.poll == expected)
        #expect(saved.poll?.votesByPlatform == ["twitch": [0, 1, 1], "youtube": [0, 0, 1]])
        #expect(saved.queue == nil && saved.giveaway == nil)

        // Closed and dismissed later: the same row moves; a second poll is the source's last.
        write([.poll(poll(closedAt: 1030, dismissed: true)), .poll(poll(token: 8))])
        let history = try BoardHistory(path: folder.database)
        let polls = try history.polls()
        #expect(polls.map(\.token) == [8, 7], "newest first (the same opening time: by number)")
        #expect(polls.last?.closedAt == 1030 && polls.last?.dismissed == true)
        #expect(polls.last?.ballots.count == 3, "closing kept the ballots")
        #expect(try history.poll(id: 1).question == "次はどれ？")
        #expect(throws: ChatMemoryError.self) { try history.poll(id: 42) }
    }

    @Test func eachSourceHasItsOwnBoards() async throws {
        write([.poll(poll(source: "11190", token: 1)), .poll(poll(source: "11191", token: 2))])
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        #expect(try await memory.savedBoards(of: "11190").poll?.token == 1)
        #expect(try await memory.savedBoards(of: "11191").poll?.token == 2)
        #expect(try await memory.savedBoards(of: "11192") == SavedBoards())
        memory.close()
    }

    @Test func theQueueIsKeptWholeAndGoesWhenClosed() async throws {
        let queue = SavedQueue(capacity: 20, firstTimeFirst: true, minimumStreamsSeen: 0, membersOnly: false,
                               joinWords: ["!join", "!参加"], leaveWords: ["!leave"],
                               waiting: [SavedQueueEntry(viewer: carol, name: "Carol", played: 1, firstTime: false),
                                         SavedQueueEntry(viewer: bob, name: "Bob", played: 0, firstTime: true)],
                               playing: [SavedQueueEntry(viewer: alice, name: "Alice", played: 2, firstTime: false)],
                               timesPlayed: [alice: 2, carol: 1, ViewerKey(platform: "twitch", channel: "streamer", user: "gone"): 3])
        var earlier = queue
        earlier.waiting.removeAll()
        write([.queue(source: "11190", earlier), .queue(source: "11190", queue)])
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        #expect(try await memory.savedBoards(of: "11190").queue == queue)
        memory.keep(.queue(source: "11190", nil))
        memory.flush()
        #expect(try await memory.savedBoards(of: "11190").queue == nil, "a closed queue is no row")
        memory.close()
    }

    @Test func aBatchWritesOnlyItsLastQueueOfEachSource() {
        let empty = SavedQueue(capacity: 5, firstTimeFirst: false, minimumStreamsSeen: 0, membersOnly: false, joinWords: ["!join"],
                               leaveWords: ["!leave"], waiting: [], playing: [], timesPlayed: [:])
        let items: [MemoryWrite] = [.board(.queue(source: "a", empty)), .board(.queue(source: "b", empty)),
                                    .board(.poll(poll())), .board(.queue(source: "a", nil))]
        let kept = WriterWork.latestQueues(items)
        #expect(kept.count == 3)
        #expect(kept.map(\.queueSource) == ["b", nil, "a"], "in their order, the earlier queue of `a` gone")
    }

    @Test func everyDrawOfAGiveawayIsKept() async throws {
        let giveaway = SavedGiveaway(token: 5, source: "11190", word: "!enter", minimumComments: 2, firstTimeViewers: false,
                                     startedAt: 2000, closesAt: nil, closedAt: nil)
        var closed = giveaway
        closed.closedAt = 2100
        write([
            .giveaway(giveaway),
            .entrant(giveaway: 5, number: 1, SavedEntrant(viewer: alice, name: "Alice", at: 2010)),
            .entrant(giveaway: 5, number: 2, SavedEntrant(viewer: bob, name: "Bob", at: 2020)),
            .giveaway(closed),
            .draw(giveaway: 5, number: 1, SavedEntrant(viewer: bob, name: "Bob", at: 2100)),
            .draw(giveaway: 5, number: 2, SavedEntrant(viewer: alice, name: "Alice", at: 2110)),
        ])
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        let saved = try #require(try await memory.savedBoards(of: "11190").giveaway)
        #expect(!saved.dismissed)
        var dismissed = closed
        dismissed.dismissed = true
        memory.keep(.giveaway(dismissed))
        #expect(memory.flush())
        #expect(try await memory.savedBoards(of: "11190").giveaway?.dismissed == true, "the winner taken off the bar")
        memory.close()
        #expect(saved.closedAt == 2100)
        #expect(saved.entrants.map(\.name) == ["Alice", "Bob"])
        #expect(saved.draws == [SavedEntrant(viewer: bob, name: "Bob", at: 2100), SavedEntrant(viewer: alice, name: "Alice", at: 2110)])
        #expect(try BoardHistory(path: folder.database).giveaways().map(\.draws.count) == [2])

        // A forgotten viewer leaves the boards too.
        _ = try ChatLog(path: folder.database).forget(user: "Bob")
        let after = try #require(try BoardHistory(path: folder.database).giveaways().first)
        #expect(after.entrants.map(\.name) == ["Alice"] && after.draws.map(\.name) == ["Alice"])
    }

    @Test func theCSVHasARowPerOptionPerPlatform() {
        var kept = poll(closedAt: 1030)
        kept.id = 3
        kept.ballots = [SavedBallot(voter: alice, option: 0, at: 1), SavedBallot(voter: bob, option: 2, at: 2),
                        SavedBallot(voter: carol, option: 0, at: 3)]
        #expect(PollExport.csvRows(kept) == [
            "3,次はどれ？,1,ラーメン,twitch,2", "3,次はどれ？,1,ラーメン,youtube,0",
            "3,次はどれ？,2,Sushi,twitch,0", "3,次はどれ？,2,Sushi,youtube,0",
            "3,次はどれ？,3,カレー,twitch,0", "3,次はどれ？,3,カレー,youtube,1",
        ])
        kept.ballots = []
        #expect(PollExport.csvRows(kept).count == 3, "nobody voted: a row per option")
    }

    /// A log written before the boards were kept, read by the CLI (which never migrates it): no polls.
    @Test func aLogFromBeforeHasNoPolls() throws {
        do {
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try ChatSchema.migrate(connection, to: 4)
        }
        let history = try BoardHistory(path: folder.database)
        #expect(try history.polls().isEmpty && history.giveaways().isEmpty)
    }

    /// `commentbar giveaway list` reads a file a renderer of before migration 7 wrote (it never
    /// migrates what it reads): its giveaways, none taken off the bar.
    @Test func aGiveawayFromBeforeItsDismissalIsReadAsItWas() throws {
        do {
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try ChatSchema.migrate(connection, to: 6)
            try connection.execute(trustedSQL: """
                INSERT INTO giveaways (token, source, word, minimum_comments, first_time_viewers, started_at)
                VALUES (7, '11190', '!enter', 0, 1, 2000);
                """)
        }
        let giveaways = try BoardHistory(path: folder.database).giveaways()
        #expect(giveaways.map(\.word) == ["!enter"] && giveaways.map(\.dismissed) == [false])
    }

    /// A renderer killed mid-stream leaves its session open: a renderer starting within
    /// `ChatStore.concurrentWithin` goes on with that stream, so each viewer's comments on it
    /// (not replayed history, not gifts) come back for a giveaway's rules. A stream that ended,
    /// or one not seen for longer, counts nothing.
    @Test func theCommentsOfTheStreamGoingOnComeBackAfterAKill() async throws {
        let start = now()
        do {
            let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
            let session = memory.openSession(testChannel, now: start)
            for index in 0..<3 { _ = memory.say(comment("a\(index)", "alice", "hello \(index)"), session: session, at: start + 1) }
            _ = memory.say(comment("b0", "bob", "hi"), session: session, at: start + 2)
            _ = memory.say(comment("h0", "bob", "yesterday", history: true), session: session, at: start + 2)
            _ = memory.say(ChatLine(id: "g0", user: "Carol", login: "carol", text: "", kind: .gift(name: "Rose", count: 1)),
                           session: session, at: start + 3)
            memory.close()
        }
        // close() ended the session, as a renderer stopped on purpose does; a kill does not.
        let connection = try SQLiteConnection(path: folder.database, mode: .readWrite)
        try connection.execute("UPDATE sessions SET ended_at = NULL")
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        defer { memory.close() }
        let counted = try await memory.savedBoards(of: "11190", now: start + 30).commentsThisStream
        #expect(counted == [alice: 3, ViewerKey(channel: testChannel, user: "bob"): 1])
        let later = try await memory.savedBoards(of: "11190", now: start + 3 + ChatStore.concurrentWithin + 1)
        #expect(later.commentsThisStream.isEmpty, "a session not seen for longer is over")
        try connection.execute("UPDATE sessions SET ended_at = last_seen_at")
        #expect(try await memory.savedBoards(of: "11190", now: start + 30).commentsThisStream.isEmpty, "an ended stream")
    }
}
