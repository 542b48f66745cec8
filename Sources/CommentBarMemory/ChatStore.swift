// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CSQLite
import Glibc

/// The chat log's writing side: one connection, used by one thread at a time (the memory's
/// writer thread, or a CLI command). Opening makes the folder and the file (mode 0600: a chat
/// log is personal), turns on WAL and brings the schema up to date.
package final class ChatStore {
    package let connection: SQLiteConnection
    private var statements: [String: SQLiteStatement] = [:]
    private var channelIDs: [ChannelRef: Int64] = [:]
    /// Names folded to their keys (`ChatFilters.nameKey`), so a chat's regulars are folded once.
    var nameKeys: [String: String] = [:]

    /// A session opened by a renderer: the log's id for it, its channel's and the stream it belongs to.
    package struct OpenSession: Sendable, Equatable {
        var id: Int64
        var stream: Int64
        var channel: ChannelRef
        var channelID: Int64
    }

    /// Another session of the channel running when one starts shares its stream (two sources
    /// on one channel); an open one counts as running if it was touched within this long (the
    /// writer touches its sessions every 5 to 10 s).
    static let concurrentWithin = 90.0
    /// Deletions and bans reach back this far: a message from before a restart in the middle
    /// of a stream is still removed.
    static let moderationReach = 12 * 3600.0

    package init(path: String, create: Bool = true) throws {
        if create {
            try MemoryFiles.makeParentFolder(of: path)
            try MemoryFiles.createPrivately(path)
        }
        connection = try SQLiteConnection(path: path, mode: create ? .create : .readWrite)
        // Another renderer (a second source) may be committing: wait for it rather than fail.
        connection.setBusyTimeout(milliseconds: 5000)
        // A new file gives the pages of removed messages back (`LogUpkeep`): set before its
        // first table, or never.
        if try connection.scalarInt("PRAGMA page_count") == 0 { try connection.execute("PRAGMA auto_vacuum = INCREMENTAL") }
        guard try connection.scalarText("PRAGMA journal_mode = WAL")?.lowercased() == "wal" else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "the chat log cannot use a write-ahead log here")
        }
        // WAL with NORMAL: a commit survives the process being killed (the OS has the pages);
        // only a power cut can lose the last commits, never the file's consistency.
        try connection.execute("PRAGMA synchronous = NORMAL")
        // 1 MiB of page cache (SQLite's default is 2): the renderer's memory stays small.
        try connection.execute("PRAGMA cache_size = -1024")
        try ChatSchema.migrate(connection)
        try fillNameKeys()
    }

    /// A statement prepared once and kept.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let known = statements[sql] { return known }
        let made = try connection.prepare(sql)
        statements[sql] = made
        return made
    }

    /// The channel's number, made on first use.
    func channelID(_ channel: ChannelRef) throws(SQLiteError) -> Int64 {
        if let known = channelIDs[channel] { return known }
        try statement("INSERT OR IGNORE INTO channels (platform, channel) VALUES (?1, ?2)")
            .run([.text(channel.platform), .text(channel.channel)])
        let id = try statement("SELECT id FROM channels WHERE platform = ?1 AND channel = ?2")
            .rows([.text(channel.platform), .text(channel.channel)]) { $0.int(0) }.first ?? 0
        channelIDs[channel] = id
        return id
    }

    /// Forgets what was cached from rows a rolled-back transaction made.
    func forgetCachedIDs() { channelIDs.removeAll() }

    // MARK: sessions

    package func openSession(_ channel: ChannelRef, at time: Double) throws(SQLiteError) -> OpenSession {
        let channelID = try channelID(channel)
        // Running when this one started: still open and seen lately, or ended after this start
        // (the writer may get to this session only after the other one ended).
        let concurrent = try statement("""
            SELECT stream FROM sessions WHERE channel_id = ?1 AND started_at <= ?2
            AND (ended_at >= ?2 OR (ended_at IS NULL AND last_seen_at > ?2 - ?3))
            ORDER BY id DESC LIMIT 1
            """).rows([.int(channelID), .real(time), .real(Self.concurrentWithin)]) { $0.int(0) }
        try statement("INSERT INTO sessions (channel_id, stream, started_at, last_seen_at) VALUES (?1, 0, ?2, ?2)")
            .run([.int(channelID), .real(time)])
        let id = connection.lastInsertRowID
        let stream = concurrent.first ?? id
        try statement("UPDATE sessions SET stream = ?2 WHERE id = ?1").run([.int(id), .int(stream)])
        return OpenSession(id: id, stream: stream, channel: channel, channelID: channelID)
    }

    func endSession(_ session: OpenSession, at time: Double) throws(SQLiteError) {
        try statement("UPDATE sessions SET ended_at = ?2, last_seen_at = max(last_seen_at, ?2) WHERE id = ?1")
            .run([.int(session.id), .real(time)])
    }

    func touch(_ session: OpenSession, at time: Double) throws(SQLiteError) {
        try statement("UPDATE sessions SET last_seen_at = max(last_seen_at, ?2) WHERE id = ?1").run([.int(session.id), .real(time)])
    }

    /// OBS started recording during the session: its subtitles are timed to the first recording.
    func recordingStarted(_ session: OpenSession, at start: Double) throws(SQLiteError) {
        try statement("UPDATE sessions SET recording_start = ?2 WHERE id = ?1 AND recording_start IS NULL")
            .run([.int(session.id), .real(start)])
    }

    // MARK: messages and viewers

    /// The viewer's number on the channel (made on first sight), with their latest display name
    /// and login, and these names' keys (`nameKey`): the row is written only when one changed, so
    /// a regular's comment folds nothing and rewrites no index.
    private func viewerID(_ key: ViewerKey, channelID: Int64, login: String?, name: String) throws(SQLiteError) -> Int64 {
        let known = try statement("SELECT id, name, login FROM viewers WHERE channel_id = ?1 AND user = ?2")
            .rows([.int(channelID), .text(key.user)]) { (id: $0.int(0), name: $0.text(1), login: $0.text(2)) }.first
        let login = login ?? known?.login
        if let known {
            if known.name != name || known.login != login {
                try statement("UPDATE viewers SET name = ?2, name_key = ?3, login = ?4, login_key = ?5 WHERE id = ?1")
                    .run([.int(known.id), .text(name), .text(nameKey(name)), .optional(login), .optional(login.map(nameKey))])
            }
            return known.id
        }
        try statement("INSERT INTO viewers (channel_id, user, login, name, name_key, login_key) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            .run([.int(channelID), .text(key.user), .optional(login), .text(name), .text(nameKey(name)),
                  .optional(login.map(nameKey))])
        return connection.lastInsertRowID
    }

    /// Writes one comment or gift; counts it for its viewer only when the row is new (another
    /// source may have written it already). History a platform replays is written only if the
    /// log has no such message yet, in any stream.
    @discardableResult
    package func insert(_ record: MessageRecord, in session: OpenSession, verdict: Verdict) throws(SQLiteError) -> Bool {
        let line = record.line
        let key = ViewerKey(channel: session.channel, line: line)
        var giftName: String?
        var count: Int?
        let kind: String
        switch line.kind {
        case .comment: kind = "comment"
        case .action: kind = "action"
        case .notice: kind = "notice"
        case .gift(let name, let size):
            kind = "gift"
            giftName = name
            count = size
        }
        let viewer = try viewerID(key, channelID: session.channelID, login: line.login, name: line.user)
        let values: [SQLiteValue] = [
            .int(session.id), .int(session.stream), .int(session.channelID), .text(line.id), .int(viewer), .text(line.user),
            .text(kind), .text(line.text), .optional(giftName), .optional(count), .real(record.time), .optional(line.sentAt),
            .text(verdict.rawValue), .bool(line.isHistory), .bool(record.firstTime), .optional(record.nicknameFromChat),
        ]
        // A row that sets a nickname keeps the one it replaced: a moderator's deletion undoes it.
        let columns = """
            INSERT OR IGNORE INTO messages (session, stream, channel_id, message_id, viewer, name, kind, text, gift_name, count,
                                            time, sent_at, verdict, history, first_time, nickname_set, nickname_before)
            """
        let inserted: Int
        if line.isHistory {
            inserted = try statement(columns + """
                SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, NULL
                WHERE NOT EXISTS (SELECT 1 FROM messages WHERE channel_id = ?3 AND message_id = ?4 AND viewer = ?5)
                """).run(values)
        } else {
            inserted = try statement(columns + """
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                         CASE WHEN ?16 IS NULL THEN NULL ELSE (SELECT nickname FROM viewers WHERE id = ?5) END)
                """).run(values)
        }
        guard inserted > 0 else { return false }
        let isGift = kind == "gift"
        try statement("""
            UPDATE viewers SET
                first_seen = min(coalesce(first_seen, ?2), ?2),
                last_seen = max(coalesce(last_seen, ?2), ?2),
                streams = streams + (last_stream IS NOT ?3),
                last_stream = ?3,
                comments = comments + ?4,
                gifts = gifts + ?5,
                nickname = coalesce(?6, nickname)
            WHERE id = ?1
            """).run([.int(viewer), .real(record.time), .int(session.stream), .int(isGift ? 0 : 1), .int(isGift ? 1 : 0),
                      .optional(record.nicknameFromChat)])
        return true
    }

    /// Sets a viewer's nickname, colour, voice or hidden flag (the control page, `viewers set`). A
    /// viewer not seen yet gets a row with no first sighting: their first comment still counts
    /// as their first.
    func setChoices(_ key: ViewerKey, nickname: FieldChange<String> = .keep, colour: FieldChange<RGBColor> = .keep,
                    voice: FieldChange<String> = .keep, hidden: Bool? = nil) throws(SQLiteError) {
        let channelID = try channelID(key.channel)
        try statement("""
            INSERT INTO viewers (channel_id, user, name, nickname, colour, hidden, name_key, voice)
            VALUES (?1, ?2, ?2, ?4, ?6, coalesce(?7, 0), ?8, ?10)
            ON CONFLICT (channel_id, user) DO UPDATE SET
                nickname = CASE WHEN ?3 THEN excluded.nickname ELSE nickname END,
                colour = CASE WHEN ?5 THEN excluded.colour ELSE colour END,
                voice = CASE WHEN ?9 THEN excluded.voice ELSE voice END,
                hidden = coalesce(?7, hidden)
            """).run([.int(channelID), .text(key.user),
                      .bool(!nickname.isKeep), .optional(nickname.apply(to: nil)),
                      .bool(!colour.isKeep), .optional(colour.apply(to: nil)?.hex),
                      hidden.map { .bool($0) } ?? .null, .text(nameKey(key.user)),
                      .bool(!voice.isKeep), .optional(voice.apply(to: nil))])
    }

    /// The bar's NG words, kept with the log: exports and `commentbar log` mask nicknames with them.
    func saveNGWords(_ filters: ChatFilters) throws(SQLiteError) {
        let save = try statement("INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        try save.run([.text("ng_words"), .text(filters.ngWordList.joined(separator: "\n"))])
        try save.run([.text("ng_mode"), .text(filters.ngMode.rawValue)])
    }

    // MARK: maintenance (the CLI)

    /// Deletes every trace of a user on every channel: their viewer rows and their messages.
    /// Returns (viewers, messages) deleted.
    func forget(user: String) throws(SQLiteError) -> (viewers: Int, messages: Int) {
        let key = ViewerKey.userKey(user)
        return try connection.transaction { () throws(SQLiteError) in
            let messages = try statement("DELETE FROM messages WHERE viewer IN (SELECT id FROM viewers WHERE user = ?1)")
                .run([.text(key)])
            let viewers = try statement("DELETE FROM viewers WHERE user = ?1").run([.text(key)])
            try forgetOnBoards(user: key)
            return (viewers, messages)
        }
    }

    /// Deletes messages older than `time` and the sessions left without any; viewers stay (their
    /// first sighting is what makes 初見 right). Returns the messages deleted.
    func prune(before time: Double) throws(SQLiteError) -> Int {
        try connection.transaction { () throws(SQLiteError) in
            let messages = try statement("DELETE FROM messages WHERE time < ?1").run([.real(time)])
            try statement("""
                DELETE FROM sessions WHERE coalesce(ended_at, last_seen_at) < ?1
                AND NOT EXISTS (SELECT 1 FROM messages WHERE messages.session = sessions.id)
                """).run([.real(time)])
            return messages
        }
    }

    /// `PRAGMA integrity_check`: "ok", or what is wrong.
    func integrityCheck() throws(SQLiteError) -> String {
        try connection.scalarText("PRAGMA integrity_check") ?? "no answer"
    }
}

/// One comment or gift for the log, as the memory saw it on the feed path.
package struct MessageRecord: Sendable {
    var session: UInt64
    var line: ChatLine
    /// When the bar received it (unix seconds).
    var time: Double
    /// The viewer is hidden in the memory: never shown, kept as hidden.
    var hiddenByMemory: Bool
    var firstTime: Bool
    /// `@name` at the end of the comment, allowed by the NG words: the viewer's new nickname.
    var nicknameFromChat: String?

    package init(session: UInt64, line: ChatLine, time: Double, hiddenByMemory: Bool, firstTime: Bool,
                 nicknameFromChat: String?) {
        self.session = session
        self.line = line
        self.time = time
        self.hiddenByMemory = hiddenByMemory
        self.firstTime = firstTime
        self.nicknameFromChat = nicknameFromChat
    }
}
