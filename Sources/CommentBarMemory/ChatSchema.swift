// SPDX-License-Identifier: GPL-2.0-or-later

/// The chat log's tables, as numbered migrations: `PRAGMA user_version` says how many a file has
/// had, and opening a file runs the rest in one transaction. A migration is never changed once
/// released; a new need is a new migration at the end.
enum ChatSchema {
    /// Each entry takes a file from version `index` to `index + 1`.
    static let migrations: [String] = [
        // 1: channels, sessions, viewers per channel, every comment and gift. Channels and
        // viewers are numbered, so a message row and its indexes hold numbers, not names.
        """
        CREATE TABLE channels (
            id INTEGER PRIMARY KEY,
            platform TEXT NOT NULL,
            channel TEXT NOT NULL,
            UNIQUE (platform, channel)
        );

        CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL,
            -- Sessions of one channel running at the same time (two OBS sources) share a stream:
            -- the first one's id. A viewer's "streams" counts streams, not sessions.
            stream INTEGER NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            -- Moved on while the session writes (and every 5 to 10 s while it is idle): a session
            -- killed without an end ended here.
            last_seen_at REAL NOT NULL,
            recording_start REAL
        );
        CREATE INDEX sessions_by_channel ON sessions (channel_id, started_at);

        CREATE TABLE viewers (
            id INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL,
            -- The platform's account (login or user id), folded to lower case; else the name.
            user TEXT NOT NULL,
            login TEXT,
            name TEXT NOT NULL,
            first_seen REAL,
            last_seen REAL,
            last_stream INTEGER,
            streams INTEGER NOT NULL DEFAULT 0,
            comments INTEGER NOT NULL DEFAULT 0,
            gifts INTEGER NOT NULL DEFAULT 0,
            nickname TEXT,
            colour TEXT,
            hidden INTEGER NOT NULL DEFAULT 0,
            UNIQUE (channel_id, user)
        );
        CREATE INDEX viewers_by_user ON viewers (user);

        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            session INTEGER NOT NULL,
            stream INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            message_id TEXT NOT NULL,
            viewer INTEGER NOT NULL,
            -- The display name when it was written.
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            -- NULL once a moderator deleted the message or banned its writer.
            text TEXT,
            gift_name TEXT,
            amount INTEGER,
            time REAL NOT NULL,
            sent_at REAL,
            -- What the bar's filters made of it: shown, masked (NG words) or hidden.
            verdict TEXT NOT NULL,
            history INTEGER NOT NULL DEFAULT 0,
            first_time INTEGER NOT NULL DEFAULT 0,
            deleted INTEGER NOT NULL DEFAULT 0,
            -- One row per message even when two sources on one channel write it; ids a platform
            -- numbers per connection are told apart by the writer and the stream.
            UNIQUE (channel_id, message_id, viewer, stream)
        );
        -- Rows are numbered as they arrive: a channel's newest rows are its highest ids.
        CREATE INDEX messages_by_channel ON messages (channel_id);
        CREATE INDEX messages_by_viewer ON messages (viewer);
        """,
        // 2: full-text search. FTS5's trigram tokenizer finds any run of three or more characters
        // inside a message (Japanese has no spaces between words); shorter words are looked for
        // with instr() over the messages (ChatSearch).
        """
        CREATE VIRTUAL TABLE messages_fts USING fts5 (text, content = 'messages', content_rowid = 'id',
                                                      tokenize = 'trigram');
        CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.text IS NOT NULL BEGIN
            INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
        END;
        CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.text IS NOT NULL BEGIN
            INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
        END;
        CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
            INSERT INTO messages_fts (messages_fts, rowid, text) SELECT 'delete', old.id, old.text WHERE old.text IS NOT NULL;
            INSERT INTO messages_fts (rowid, text) SELECT new.id, new.text WHERE new.text IS NOT NULL;
        END;
        INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
        """,
        // 3: one word for a gift's size (`count`, as the feed protocol and the event API say it);
        // what a nickname set in chat replaced, so a moderator's deletion of that row undoes it;
        // viewers' names and logins folded as the NG words fold text (`NameKey`), so a nickname
        // that is another viewer's name is found and refused (filled by `ChatStore` for rows
        // written before); the bar's NG words, which exports apply to nicknames.
        """
        ALTER TABLE messages RENAME COLUMN amount TO count;
        ALTER TABLE messages ADD COLUMN nickname_set TEXT;
        ALTER TABLE messages ADD COLUMN nickname_before TEXT;
        ALTER TABLE viewers ADD COLUMN name_key TEXT;
        ALTER TABLE viewers ADD COLUMN login_key TEXT;
        CREATE INDEX viewers_by_name_key ON viewers (channel_id, name_key);
        CREATE INDEX viewers_by_login_key ON viewers (channel_id, login_key);
        CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // 4: the voice speech reads a viewer in, when the streamer gave them one (`ChatLine.voice`).
        "ALTER TABLE viewers ADD COLUMN voice TEXT;",
        // 5: the audience's boards (issue 48), per source (`BoardSource`: the source's control
        // port), so a renderer killed or restarted comes back with them: every poll with its
        // options and one ballot per viewer account (the last one of a source restored, all kept
        // as history), the open queue (a closed one has no rows), every giveaway with its
        // entrants and every draw. Polls and giveaways are named by the renderer's random
        // `token` (its writes are asynchronous: a ballot is queued before the poll has an id).
        """
        CREATE TABLE polls (
            id INTEGER PRIMARY KEY,
            token INTEGER NOT NULL UNIQUE,
            source TEXT NOT NULL,
            question TEXT NOT NULL,
            revote TEXT NOT NULL,
            bare_numbers INTEGER NOT NULL,
            opened_at REAL NOT NULL,
            closes_at REAL,
            closed_at REAL,
            dismissed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX polls_by_source ON polls (source, opened_at);
        CREATE TABLE poll_options (
            poll INTEGER NOT NULL,
            number INTEGER NOT NULL,
            text TEXT NOT NULL,
            PRIMARY KEY (poll, number)
        ) WITHOUT ROWID;
        CREATE TABLE poll_ballots (
            poll INTEGER NOT NULL,
            platform TEXT NOT NULL,
            channel TEXT NOT NULL,
            user TEXT NOT NULL,
            -- 0-based, as the options' numbers.
            option INTEGER NOT NULL,
            voted_at REAL NOT NULL,
            PRIMARY KEY (poll, platform, channel, user)
        ) WITHOUT ROWID;

        CREATE TABLE queues (
            source TEXT PRIMARY KEY,
            capacity INTEGER NOT NULL,
            first_time_first INTEGER NOT NULL,
            minimum_streams_seen INTEGER NOT NULL,
            members_only INTEGER NOT NULL,
            -- The words folded as the queue compares them, one a line (a folded word has none).
            join_words TEXT NOT NULL,
            leave_words TEXT NOT NULL,
            updated_at REAL NOT NULL
        );
        -- Who waits ('waiting', by place), plays ('playing') or only played before (state NULL).
        CREATE TABLE queue_viewers (
            source TEXT NOT NULL,
            platform TEXT NOT NULL,
            channel TEXT NOT NULL,
            user TEXT NOT NULL,
            name TEXT NOT NULL,
            state TEXT,
            place INTEGER NOT NULL,
            played INTEGER NOT NULL,
            first_time INTEGER NOT NULL,
            times_played INTEGER NOT NULL,
            PRIMARY KEY (source, platform, channel, user)
        ) WITHOUT ROWID;

        CREATE TABLE giveaways (
            id INTEGER PRIMARY KEY,
            token INTEGER NOT NULL UNIQUE,
            source TEXT NOT NULL,
            word TEXT NOT NULL,
            minimum_comments INTEGER NOT NULL,
            first_time_viewers INTEGER NOT NULL,
            started_at REAL NOT NULL,
            closes_at REAL,
            closed_at REAL
        );
        CREATE INDEX giveaways_by_source ON giveaways (source, started_at);
        CREATE TABLE giveaway_entrants (
            giveaway INTEGER NOT NULL,
            number INTEGER NOT NULL,
            platform TEXT NOT NULL,
            channel TEXT NOT NULL,
            user TEXT NOT NULL,
            name TEXT NOT NULL,
            entered_at REAL NOT NULL,
            PRIMARY KEY (giveaway, platform, channel, user)
        ) WITHOUT ROWID;
        CREATE TABLE giveaway_draws (
            giveaway INTEGER NOT NULL,
            number INTEGER NOT NULL,
            platform TEXT NOT NULL,
            channel TEXT NOT NULL,
            user TEXT NOT NULL,
            name TEXT NOT NULL,
            drawn_at REAL NOT NULL,
            PRIMARY KEY (giveaway, number)
        ) WITHOUT ROWID;
        """,
        // 6: a stream's rows found without reading the whole log: a restarted renderer counts each
        // viewer's comments on the streams going on (a giveaway's rules), and a stream's export.
        "CREATE INDEX messages_by_stream ON messages (stream, viewer);",
        // 7: a giveaway's winner taken off the bar (`POST /api/giveaway/dismiss`), as a poll's
        // result is: a restarted renderer does not pin it again.
        "ALTER TABLE giveaways ADD COLUMN dismissed INTEGER NOT NULL DEFAULT 0;",
    ]

    static var currentVersion: Int { migrations.count }

    /// A file made by a newer CommentBar: not written, so its data is not damaged.
    struct TooNew: Error, Sendable {
        var version: Int
    }

    /// Brings the file to `target` (default: the current version). Returns the version it had.
    @discardableResult
    static func migrate(_ connection: SQLiteConnection, to target: Int = currentVersion) throws -> Int {
        let found = Int(try connection.scalarInt("PRAGMA user_version") ?? 0)
        guard found <= currentVersion else { throw TooNew(version: found) }
        guard found < target else { return found }
        try connection.transaction { () throws(SQLiteError) in
            for version in found..<target {
                try connection.execute(trustedSQL: migrations[version])
            }
            // PRAGMA takes no bound value; the number is this program's own.
            try connection.execute(trustedSQL: "PRAGMA user_version = \(target)")
        }
        return found
    }
}
