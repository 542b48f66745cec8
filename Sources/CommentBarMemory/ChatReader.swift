// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The chat log's reading side: one connection of its own (WAL lets it read while the writer
/// commits), used by one thread at a time: `ChatMemory` holds it behind a lock. Reads see what
/// the writer has committed (at most a few hundred milliseconds behind the bar).
package final class ChatReader {
    let connection: SQLiteConnection
    private var statements: [String: SQLiteStatement] = [:]

    package init(path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path, mode: .readWrite)
        connection.setBusyTimeout(milliseconds: 200)
        try connection.execute("PRAGMA query_only = ON")
        // A reader needs few pages: an indexed row, or a search's matches.
        try connection.execute("PRAGMA cache_size = -512")
    }

    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let known = statements[sql] { return known }
        let made = try connection.prepare(sql)
        statements[sql] = made
        return made
    }

    // MARK: viewers

    private static let viewerColumns = """
        c.platform, c.channel, v.user, v.login, v.name, v.nickname, v.colour, v.hidden, v.first_seen, v.last_seen, v.streams,
        v.comments, v.gifts, v.voice FROM viewers v JOIN channels c ON c.id = v.channel_id
        """

    private static func viewer(_ row: SQLiteStatement) -> ViewerFacts {
        ViewerFacts(key: ViewerKey(platform: row.text(0) ?? "", channel: row.text(1) ?? "", user: row.text(2) ?? ""),
                    login: row.text(3), name: row.text(4) ?? "", nickname: row.text(5),
                    colour: row.text(6).flatMap(RGBColor.init(hex:)), voice: row.text(13), hidden: row.int(7) != 0,
                    firstSeen: row.optionalDouble(8), lastSeen: row.optionalDouble(9), streams: Int(row.int(10)),
                    comments: Int(row.int(11)), gifts: Int(row.int(12)))
    }

    /// One viewer (the feed path's look-up on a cache miss: two indexed rows).
    func viewer(_ key: ViewerKey) throws(SQLiteError) -> ViewerFacts? {
        try statement("SELECT \(Self.viewerColumns) WHERE c.platform = ?1 AND c.channel = ?2 AND v.user = ?3")
            .rows([.text(key.channel.platform), .text(key.channel.channel), .text(key.user)], Self.viewer).first
    }

    /// Whether a viewer of `channel` other than `user` has the name or login whose key
    /// (`ChatFilters.nameKey`) is `nameKey`.
    func someoneElse(on channel: ChannelRef, isNamed nameKey: String, not user: String) throws(SQLiteError) -> Bool {
        try !statement("""
            SELECT 1 FROM viewers v JOIN channels c ON c.id = v.channel_id
            WHERE c.platform = ?1 AND c.channel = ?2 AND v.user != ?3 AND (v.name_key = ?4 OR v.login_key = ?4) LIMIT 1
            """).rows([.text(channel.platform), .text(channel.channel), .text(user), .text(nameKey)]) { $0.int(0) }.isEmpty
    }

    /// Every viewer, or a channel's, most recently seen first.
    func viewers(of channel: ChannelRef?) throws(SQLiteError) -> [ViewerFacts] {
        try statement("""
            SELECT \(Self.viewerColumns) WHERE (?1 IS NULL OR (c.platform = ?1 AND c.channel = ?2))
            ORDER BY c.platform, c.channel, coalesce(v.last_seen, 0) DESC, v.user
            """).rows([.optional(channel?.platform), .optional(channel?.channel)], Self.viewer)
    }

    // MARK: messages

    private static let messageColumns = """
        m.id, m.session, c.platform, c.channel, m.message_id, v.user, v.login, m.name, v.nickname, m.kind, m.text,
        m.gift_name, m.count, m.time, m.sent_at, m.verdict, m.history, m.first_time, m.deleted
        """
    private static let joins = "JOIN channels c ON c.id = m.channel_id JOIN viewers v ON v.id = m.viewer"

    private static func message(_ row: SQLiteStatement) -> LoggedMessage {
        LoggedMessage(seq: row.int(0), session: row.int(1),
                      channel: ChannelRef(platform: row.text(2) ?? "", channel: row.text(3) ?? ""),
                      messageID: row.text(4) ?? "", user: row.text(5) ?? "", login: row.text(6), name: row.text(7) ?? "",
                      nickname: row.text(8), kind: row.text(9) ?? "comment", text: row.text(10), giftName: row.text(11),
                      count: row.isNull(12) ? nil : Int(row.int(12)), time: row.double(13), sentAt: row.optionalDouble(14),
                      verdict: row.text(15) ?? Verdict.shown.rawValue, history: row.int(16) != 0,
                      firstTime: row.int(17) != 0, deleted: row.int(18) != 0)
    }

    /// Rows written after `seq` (the control page's polling), oldest first, at most `limit`.
    func recent(after seq: Int64, limit: Int, channel: ChannelRef? = nil) throws(SQLiteError) -> [LoggedMessage] {
        try statement("""
            SELECT \(Self.messageColumns) FROM messages m \(Self.joins)
            WHERE m.id > ?1 AND (?3 IS NULL OR (c.platform = ?3 AND c.channel = ?4)) ORDER BY m.id LIMIT ?2
            """).rows([.int(seq), .int(limit), .optional(channel?.platform), .optional(channel?.channel)], Self.message)
    }

    /// Matches of `query`, newest first. Three characters or more: the trigram index; shorter
    /// (初見, 草, 神回): instr() over the messages, newest first, within the channel and time
    /// asked for (the trigram index cannot hold what is shorter than a trigram).
    package func search(_ query: ChatQuery) throws(SQLiteError) -> [LoggedMessage] {
        let (statement, values) = try searchStatement(query)
        return try statement.rows(values, Self.message)
    }

    /// `search` cut short after `limit`: the matches found by then (the newest), `complete`
    /// false when it was cut.
    func search(_ query: ChatQuery, within limit: Duration) throws(SQLiteError) -> (rows: [LoggedMessage], complete: Bool) {
        let (statement, values) = try searchStatement(query)
        return try connection.withDeadline(limit) { () throws(SQLiteError) in
            try statement.rowsUntilInterrupted(values, Self.message)
        }
    }

    /// At most this many of a phrase's trigrams are looked up in the index; a longer phrase is
    /// matched on its start, and the whole of it checked in each row found. Each trigram of a
    /// phrase is a look-up of its own: 198 of them for a 200-character run of `w` (a common
    /// laugh, so a long list each) cost seconds.
    static let maxPhraseTrigrams = 16

    private func searchStatement(_ query: ChatQuery) throws(SQLiteError) -> (SQLiteStatement, [SQLiteValue]) {
        let text = query.text
        let scalars = text.unicodeScalars
        let filters: [SQLiteValue] = [
            .optional(query.channel?.platform), .optional(query.channel?.channel), .optional(query.since),
            query.user.map { .text(ViewerKey.userKey($0)) } ?? .null, .optional(query.user), .int(query.limit ?? -1),
        ]
        let conditions = """
            (?2 IS NULL OR (c.platform = ?2 AND c.channel = ?3)) AND (?4 IS NULL OR m.time >= ?4)
            AND (?5 IS NULL OR v.user = ?5 OR m.name = ?6 COLLATE NOCASE OR v.nickname = ?6 COLLATE NOCASE)
            AND m.deleted = 0
            """
        if scalars.count >= 3 {
            // An FTS5 string: the phrase (its start, when long) as one phrase, its quotes doubled.
            let indexed = String(String.UnicodeScalarView(scalars.prefix(Self.maxPhraseTrigrams + 2)))
            let phrase = "\"" + indexed.replacing("\"", with: "\"\"") + "\""
            let whole: SQLiteValue = indexed.unicodeScalars.count < scalars.count ? .text(text) : .null
            return (try statement("""
                SELECT \(Self.messageColumns) FROM messages_fts f JOIN messages m ON m.id = f.rowid \(Self.joins)
                WHERE messages_fts MATCH ?1 AND \(conditions) AND (?8 IS NULL OR instr(lower(m.text), lower(?8)) > 0)
                ORDER BY f.rowid DESC LIMIT ?7
                """), [.text(phrase)] + filters + [whole])
        }
        return (try statement("""
            SELECT \(Self.messageColumns) FROM messages m \(Self.joins)
            WHERE instr(lower(m.text), lower(?1)) > 0 AND \(conditions) ORDER BY m.id DESC LIMIT ?7
            """), [.text(text)] + filters)
    }

    /// The channel's last `limit` shown comments, oldest first, if its last session ended less than
    /// `within` seconds before `now` (an OBS restart in the middle of a stream); else none.
    func history(of channel: ChannelRef, limit: Int, within: Double, now: Double) throws(SQLiteError) -> [LoggedMessage] {
        let ended = try statement("""
            SELECT max(coalesce(s.ended_at, s.last_seen_at)) FROM sessions s JOIN channels c ON c.id = s.channel_id
            WHERE c.platform = ?1 AND c.channel = ?2
            """).rows([.text(channel.platform), .text(channel.channel)]) { $0.optionalDouble(0) }.first ?? nil
        guard let ended, now - ended < within, limit > 0 else { return [] }
        return try statement("""
            SELECT \(Self.messageColumns) FROM messages m \(Self.joins)
            WHERE c.platform = ?1 AND c.channel = ?2 AND m.deleted = 0 AND m.verdict != 'hidden' AND m.kind != 'gift'
            ORDER BY m.id DESC LIMIT ?3
            """).rows([.text(channel.platform), .text(channel.channel), .int(limit)], Self.message).reversed()
    }

    /// The NG words the bar last used on this log (`ChatStore.saveNGWords`): exports and the CLI
    /// mask nicknames with them.
    func savedFilters() throws(SQLiteError) -> ChatFilters {
        let values = Dictionary(try statement("SELECT key, value FROM settings WHERE key IN ('ng_words', 'ng_mode')")
            .rows { ($0.text(0) ?? "", $0.text(1) ?? "") }, uniquingKeysWith: { $1 })
        let words = (values["ng_words"] ?? "").split(separator: "\n").map(String.init)
        return ChatFilters(hideBots: false, hideCommands: false, ngWords: words,
                           ngMode: values["ng_mode"].flatMap(NGMode.init(rawValue:)) ?? .mask,
                           highlightPaid: false, highlightFirstMessages: false)
    }

    // MARK: sessions

    private static let sessionColumns = """
        s.id, c.platform, c.channel, s.stream, s.started_at, s.ended_at, s.last_seen_at, s.recording_start
        FROM sessions s JOIN channels c ON c.id = s.channel_id
        """

    private static func session(_ row: SQLiteStatement) -> SessionInfo {
        SessionInfo(id: row.int(0), channel: ChannelRef(platform: row.text(1) ?? "", channel: row.text(2) ?? ""),
                    stream: row.int(3), startedAt: row.double(4), endedAt: row.optionalDouble(5),
                    lastSeenAt: row.double(6), recordingStart: row.optionalDouble(7))
    }

    func session(id: Int64) throws(SQLiteError) -> SessionInfo? {
        try statement("SELECT \(Self.sessionColumns) WHERE s.id = ?1").rows([.int(id)], Self.session).first
    }

    /// The newest session (of a channel, if given).
    func latestSession(of channel: ChannelRef?) throws(SQLiteError) -> SessionInfo? {
        try statement("""
            SELECT \(Self.sessionColumns) WHERE (?1 IS NULL OR (c.platform = ?1 AND c.channel = ?2))
            ORDER BY s.started_at DESC, s.id DESC LIMIT 1
            """).rows([.optional(channel?.platform), .optional(channel?.channel)], Self.session).first
    }

    /// Every session of the session's stream (two sources on one channel make one stream).
    func sessions(inStream stream: Int64) throws(SQLiteError) -> [SessionInfo] {
        try statement("SELECT \(Self.sessionColumns) WHERE s.stream = ?1 ORDER BY s.id").rows([.int(stream)], Self.session)
    }

    /// A stream's messages in the order they came.
    func messages(inStream stream: Int64) throws(SQLiteError) -> [LoggedMessage] {
        try statement("""
            SELECT \(Self.messageColumns) FROM messages m \(Self.joins) WHERE m.stream = ?1 ORDER BY m.time, m.id
            """).rows([.int(stream)], Self.message)
    }
}

/// What `log search` and the control page's search box ask for.
public struct ChatQuery: Sendable, Equatable {
    /// Found anywhere inside a message (not only as a whole word), ignoring ASCII case.
    public var text: String
    public var channel: ChannelRef?
    /// An account, a display name or a nickname.
    public var user: String?
    /// Unix seconds.
    public var since: Double?
    /// Nil: every match.
    public var limit: Int?

    public init(text: String, channel: ChannelRef? = nil, user: String? = nil, since: Double? = nil, limit: Int? = nil) {
        self.text = text
        self.channel = channel
        self.user = user
        self.since = since
        self.limit = limit
    }
}
