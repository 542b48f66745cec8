// SPDX-License-Identifier: GPL-2.0-or-later

/// The boards' rows read back: a source's last poll, open queue and last giveaway to restore
/// them, and every poll and giveaway for the CLI.
extension ChatReader {
    /// Whether the file has the boards' tables (a log made before them, opened read-only, has not).
    func hasBoards() throws(SQLiteError) -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'polls'") ?? 0 > 0
    }

    /// What the file holds of `source`'s boards, and each viewer's comments on the streams going
    /// on at `now`.
    func savedBoards(of source: String, now: Double) throws(SQLiteError) -> SavedBoards {
        let pollID = try statement("SELECT id FROM polls WHERE source = ?1 ORDER BY opened_at DESC, id DESC LIMIT 1")
            .rows([.text(source)]) { $0.int(0) }.first
        let giveawayID = try statement("SELECT id FROM giveaways WHERE source = ?1 ORDER BY started_at DESC, id DESC LIMIT 1")
            .rows([.text(source)]) { $0.int(0) }.first
        var saved = SavedBoards(queue: try queue(of: source))
        if let pollID { saved.poll = try poll(id: pollID) }
        if let giveawayID { saved.giveaway = try giveaway(id: giveawayID) }
        saved.commentsThisStream = try commentsOnStreamsGoingOn(now: now)
        return saved
    }

    /// Each viewer's comments (not replayed history) on the streams going on at `now`: those with
    /// a session not ended and seen within `ChatStore.concurrentWithin`, the ones a session
    /// opened now goes on with (a renderer killed or restarted mid-stream). At most `limit`
    /// viewers, the most talkative first.
    func commentsOnStreamsGoingOn(now: Double, limit: Int = 100_000) throws(SQLiteError) -> [ViewerKey: Int] {
        let rows = try statement("""
            SELECT c.platform, c.channel, v.user, count(*) AS said FROM messages m
            JOIN viewers v ON v.id = m.viewer JOIN channels c ON c.id = m.channel_id
            WHERE m.stream IN (SELECT stream FROM sessions WHERE ended_at IS NULL AND last_seen_at > ?1)
            AND m.kind = 'comment' AND m.history = 0
            GROUP BY m.viewer ORDER BY said DESC LIMIT ?2
            """).rows([.real(now - ChatStore.concurrentWithin), .int(Int64(limit))]) { row in
            (ViewerKey(platform: row.text(0) ?? "", channel: row.text(1) ?? "", user: row.text(2) ?? ""), Int(row.int(3)))
        }
        return Dictionary(rows, uniquingKeysWith: +)
    }

    // MARK: polls

    private static let pollColumns = """
        id, token, source, question, revote, bare_numbers, opened_at, closes_at, closed_at, dismissed FROM polls
        """

    private static func pollRow(_ row: SQLiteStatement) -> SavedPoll {
        SavedPoll(token: row.int(1), source: row.text(2) ?? "", question: row.text(3) ?? "", options: [],
                  revote: row.text(4) ?? "", bareNumbers: row.int(5) != 0, openedAt: row.double(6),
                  closesAt: row.optionalDouble(7), closedAt: row.optionalDouble(8), dismissed: row.int(9) != 0, id: row.int(0))
    }

    /// A poll with its options and ballots (nil: no such number).
    func poll(id: Int64) throws(SQLiteError) -> SavedPoll? {
        guard var poll = try statement("SELECT \(Self.pollColumns) WHERE id = ?1").rows([.int(id)], Self.pollRow).first
        else { return nil }
        poll.options = try statement("SELECT text FROM poll_options WHERE poll = ?1 ORDER BY number")
            .rows([.int(id)]) { $0.text(0) ?? "" }
        poll.ballots = try statement("""
            SELECT platform, channel, user, option, voted_at FROM poll_ballots WHERE poll = ?1 ORDER BY voted_at, platform, channel, user
            """).rows([.int(id)]) { row in
                SavedBallot(voter: ViewerKey(platform: row.text(0) ?? "", channel: row.text(1) ?? "", user: row.text(2) ?? ""),
                            option: Int(row.int(3)), at: row.double(4))
            }
        return poll
    }

    /// Every poll with its options and ballots, newest first.
    func polls() throws(SQLiteError) -> [SavedPoll] {
        let ids = try statement("SELECT id FROM polls ORDER BY opened_at DESC, id DESC").rows { $0.int(0) }
        var polls: [SavedPoll] = []
        for id in ids {
            if let poll = try poll(id: id) { polls.append(poll) }
        }
        return polls
    }

    // MARK: the queue

    func queue(of source: String) throws(SQLiteError) -> SavedQueue? {
        let rules = try statement("""
            SELECT capacity, first_time_first, minimum_streams_seen, members_only, join_words, leave_words FROM queues WHERE source = ?1
            """).rows([.text(source)]) { row in
                SavedQueue(capacity: Int(row.int(0)), firstTimeFirst: row.int(1) != 0, minimumStreamsSeen: Int(row.int(2)),
                           membersOnly: row.int(3) != 0, joinWords: Self.lines(row.text(4)), leaveWords: Self.lines(row.text(5)),
                           waiting: [], playing: [], timesPlayed: [:])
            }.first
        guard var queue = rules else { return nil }
        let viewers = try statement("""
            SELECT platform, channel, user, name, state, played, first_time, times_played FROM queue_viewers
            WHERE source = ?1 ORDER BY place
            """).rows([.text(source)]) { row in
                (entry: SavedQueueEntry(viewer: ViewerKey(platform: row.text(0) ?? "", channel: row.text(1) ?? "", user: row.text(2) ?? ""),
                                        name: row.text(3) ?? "", played: Int(row.int(5)), firstTime: row.int(6) != 0),
                 state: row.text(4), times: Int(row.int(7)))
            }
        for viewer in viewers {
            if viewer.times > 0 { queue.timesPlayed[viewer.entry.viewer] = viewer.times }
            switch viewer.state {
            case "waiting": queue.waiting.append(viewer.entry)
            case "playing": queue.playing.append(viewer.entry)
            default: break
            }
        }
        return queue
    }

    private static func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").map(String.init)
    }

    // MARK: giveaways

    func giveaway(id: Int64) throws(SQLiteError) -> SavedGiveaway? {
        // A file from before migration 7, which `BoardHistory` reads without migrating, has no
        // `dismissed`: its winners were never taken off the bar.
        let dismissed = try hasGiveawaysDismissed() ? "dismissed" : "0"
        guard var giveaway = try statement("""
            SELECT id, token, source, word, minimum_comments, first_time_viewers, started_at, closes_at, closed_at, \(dismissed)
            FROM giveaways WHERE id = ?1
            """).rows([.int(id)], { row in
                SavedGiveaway(token: row.int(1), source: row.text(2) ?? "", word: row.text(3) ?? "",
                              minimumComments: Int(row.int(4)), firstTimeViewers: row.int(5) != 0, startedAt: row.double(6),
                              closesAt: row.optionalDouble(7), closedAt: row.optionalDouble(8), dismissed: row.int(9) != 0,
                              id: row.int(0))
            }).first else { return nil }
        func entrants(_ table: String, time: String) throws(SQLiteError) -> [SavedEntrant] {
            try statement("SELECT platform, channel, user, name, \(time) FROM \(table) WHERE giveaway = ?1 ORDER BY number")
                .rows([.int(id)]) { row in
                    SavedEntrant(viewer: ViewerKey(platform: row.text(0) ?? "", channel: row.text(1) ?? "", user: row.text(2) ?? ""),
                                 name: row.text(3) ?? "", at: row.double(4))
                }
        }
        giveaway.entrants = try entrants("giveaway_entrants", time: "entered_at")
        giveaway.draws = try entrants("giveaway_draws", time: "drawn_at")
        return giveaway
    }

    private func hasGiveawaysDismissed() throws(SQLiteError) -> Bool {
        try connection.scalarInt("SELECT count(*) FROM pragma_table_info('giveaways') WHERE name = 'dismissed'") ?? 0 > 0
    }

    /// Every giveaway with its entrants and draws, newest first.
    func giveaways() throws(SQLiteError) -> [SavedGiveaway] {
        let ids = try statement("SELECT id FROM giveaways ORDER BY started_at DESC, id DESC").rows { $0.int(0) }
        var giveaways: [SavedGiveaway] = []
        for id in ids {
            if let giveaway = try giveaway(id: id) { giveaways.append(giveaway) }
        }
        return giveaways
    }
}
