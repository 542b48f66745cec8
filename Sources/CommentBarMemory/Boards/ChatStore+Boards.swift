// SPDX-License-Identifier: GPL-2.0-or-later

/// The boards' rows (issue 48), written by the memory's writer thread inside its batch's
/// transaction. A ballot, an entrant or a draw names its poll or giveaway by token: one whose
/// row is not in this file (it started before the file was switched) writes nothing.
extension ChatStore {
    func keep(_ record: BoardRecord, now: Double) throws(SQLiteError) {
        switch record {
        case .poll(let poll):
            try keepPoll(poll)
        case .ballot(let token, let ballot):
            try keepBallot(ballot, poll: token)
        case .queue(let source, let queue):
            try keepQueue(queue, of: source, now: now)
        case .giveaway(let giveaway):
            try keepGiveaway(giveaway)
        case .entrant(let token, let number, let entrant):
            try keepEntrant(entrant, number: number, giveaway: token)
        case .draw(let token, let number, let winner):
            try statement("""
                INSERT OR REPLACE INTO giveaway_draws (giveaway, number, platform, channel, user, name, drawn_at)
                SELECT id, ?2, ?3, ?4, ?5, ?6, ?7 FROM giveaways WHERE token = ?1
                """).run([.int(token), .int(number), .text(winner.viewer.channel.platform), .text(winner.viewer.channel.channel),
                          .text(winner.viewer.user), .text(winner.name), .real(winner.at)])
        }
    }

    private func keepPoll(_ poll: SavedPoll) throws(SQLiteError) {
        // Its start writes every column; later records (a close, a dismissal) only move these two.
        try statement("""
            INSERT INTO polls (token, source, question, revote, bare_numbers, opened_at, closes_at, closed_at, dismissed)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (token) DO UPDATE SET closed_at = excluded.closed_at, dismissed = excluded.dismissed
            """).run([.int(poll.token), .text(poll.source), .text(poll.question), .text(poll.revote), .bool(poll.bareNumbers),
                      .real(poll.openedAt), .optional(poll.closesAt), .optional(poll.closedAt), .bool(poll.dismissed)])
        let option = try statement("INSERT OR IGNORE INTO poll_options (poll, number, text) SELECT id, ?2, ?3 FROM polls WHERE token = ?1")
        for (number, text) in poll.options.enumerated() { try option.run([.int(poll.token), .int(number), .text(text)]) }
        for ballot in poll.ballots { try keepBallot(ballot, poll: poll.token) }
    }

    private func keepBallot(_ ballot: SavedBallot, poll token: Int64) throws(SQLiteError) {
        // A moved vote (`latest` replaces) replaces the account's row.
        try statement("""
            INSERT OR REPLACE INTO poll_ballots (poll, platform, channel, user, option, voted_at)
            SELECT id, ?2, ?3, ?4, ?5, ?6 FROM polls WHERE token = ?1
            """).run([.int(token), .text(ballot.voter.channel.platform), .text(ballot.voter.channel.channel),
                      .text(ballot.voter.user), .int(ballot.option), .real(ballot.at)])
    }

    /// The whole queue in place of what was there: at most its capacity (500) and its players'
    /// counts, and the writer keeps only a batch's last one per source.
    private func keepQueue(_ queue: SavedQueue?, of source: String, now: Double) throws(SQLiteError) {
        try statement("DELETE FROM queue_viewers WHERE source = ?1").run([.text(source)])
        guard let queue else {
            try statement("DELETE FROM queues WHERE source = ?1").run([.text(source)])
            return
        }
        try statement("""
            INSERT OR REPLACE INTO queues (source, capacity, first_time_first, minimum_streams_seen, members_only,
                                           join_words, leave_words, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            """).run([.text(source), .int(queue.capacity), .bool(queue.firstTimeFirst), .int(queue.minimumStreamsSeen),
                      .bool(queue.membersOnly), .text(queue.joinWords.joined(separator: "\n")),
                      .text(queue.leaveWords.joined(separator: "\n")), .real(now)])
        let insert = try statement("""
            INSERT OR REPLACE INTO queue_viewers (source, platform, channel, user, name, state, place, played, first_time, times_played)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """)
        var written: Set<ViewerKey> = []
        for (state, entries) in [("playing", queue.playing), ("waiting", queue.waiting)] {
            for (place, entry) in entries.enumerated() where written.insert(entry.viewer).inserted {
                try insert.run([.text(source), .text(entry.viewer.channel.platform), .text(entry.viewer.channel.channel),
                                .text(entry.viewer.user), .text(entry.name), .text(state), .int(place), .int(entry.played),
                                .bool(entry.firstTime), .int(queue.timesPlayed[entry.viewer] ?? 0)])
            }
        }
        for (viewer, times) in queue.timesPlayed where !written.contains(viewer) {
            try insert.run([.text(source), .text(viewer.channel.platform), .text(viewer.channel.channel), .text(viewer.user),
                            .text(""), .null, .int(0), .int(0), .bool(false), .int(times)])
        }
    }

    private func keepGiveaway(_ giveaway: SavedGiveaway) throws(SQLiteError) {
        try statement("""
            INSERT INTO giveaways (token, source, word, minimum_comments, first_time_viewers, started_at, closes_at, closed_at,
                                   dismissed)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT (token) DO UPDATE SET closed_at = excluded.closed_at, dismissed = excluded.dismissed
            """).run([.int(giveaway.token), .text(giveaway.source), .text(giveaway.word), .int(giveaway.minimumComments),
                      .bool(giveaway.firstTimeViewers), .real(giveaway.startedAt), .optional(giveaway.closesAt),
                      .optional(giveaway.closedAt), .bool(giveaway.dismissed)])
        for (index, entrant) in giveaway.entrants.enumerated() {
            try keepEntrant(entrant, number: index + 1, giveaway: giveaway.token)
        }
        for (index, winner) in giveaway.draws.enumerated() {
            try keep(.draw(giveaway: giveaway.token, number: index + 1, winner), now: winner.at)
        }
    }

    /// A forgotten viewer (`commentbar viewers forget`) leaves the boards too: their votes, their
    /// place in a queue, their entries and draws (the polls' kept counts lose their votes).
    func forgetOnBoards(user key: String) throws(SQLiteError) {
        for table in ["poll_ballots", "queue_viewers", "giveaway_entrants", "giveaway_draws"] {
            try statement("DELETE FROM \(table) WHERE user = ?1").run([.text(key)])
        }
    }

    private func keepEntrant(_ entrant: SavedEntrant, number: Int, giveaway token: Int64) throws(SQLiteError) {
        try statement("""
            INSERT OR IGNORE INTO giveaway_entrants (giveaway, number, platform, channel, user, name, entered_at)
            SELECT id, ?2, ?3, ?4, ?5, ?6, ?7 FROM giveaways WHERE token = ?1
            """).run([.int(token), .int(number), .text(entrant.viewer.channel.platform), .text(entrant.viewer.channel.channel),
                      .text(entrant.viewer.user), .text(entrant.name), .real(entrant.at)])
    }
}
