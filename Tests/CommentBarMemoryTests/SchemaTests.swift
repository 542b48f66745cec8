// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CommentBarMemory
import CommentBarTestSupport
import CommentBarCore
import Testing

@Suite struct SchemaTests {
    @Test func aNewFileHasTheCurrentSchemaInWALMode() throws {
        let folder = TemporaryFolder()
        let store = try ChatStore(path: folder.database)
        #expect(try store.connection.scalarInt("PRAGMA user_version") == Int64(ChatSchema.currentVersion))
        #expect(try store.connection.scalarText("PRAGMA journal_mode") == "wal")
        let tables = try store.connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .rows { $0.text(0) ?? "" }
        #expect(Set(tables).isSuperset(of: ["channels", "sessions", "viewers", "messages", "messages_fts"]))
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func aFileAtVersionZeroIsMigrated() throws {
        let folder = TemporaryFolder()
        do {
            // An empty SQLite file, as one made by hand or by a crash before the first migration.
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try connection.execute("CREATE TABLE unrelated (x)")
            #expect(try connection.scalarInt("PRAGMA user_version") == 0)
        }
        let store = try ChatStore(path: folder.database)
        #expect(try store.connection.scalarInt("PRAGMA user_version") == Int64(ChatSchema.currentVersion))
        #expect(try store.connection.scalarInt("SELECT count(*) FROM unrelated") == 0, "what was there stays")
    }

    @Test func aFileAtVersionOneGetsSearchOverItsOldRows() throws {
        let folder = TemporaryFolder()
        do {
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try ChatSchema.migrate(connection, to: 1)
            try connection.execute("""
                INSERT INTO channels (id, platform, channel) VALUES (1, 'twitch', 'streamer');
                INSERT INTO sessions (id, channel_id, stream, started_at, last_seen_at) VALUES (1, 1, 1, 1, 1);
                INSERT INTO viewers (id, channel_id, user, name) VALUES (1, 1, 'alice', 'Alice');
                INSERT INTO messages (session, stream, channel_id, message_id, viewer, name, kind, text, time, verdict)
                VALUES (1, 1, 1, 'old1', 1, 'Alice', 'comment', '昨日はラーメン食べた', 2, 'shown');
                """)
            #expect(try connection.scalarInt("PRAGMA user_version") == 1)
        }
        let store = try ChatStore(path: folder.database)
        #expect(try store.connection.scalarInt("PRAGMA user_version") == Int64(ChatSchema.currentVersion))
        let found = try ChatReader(path: folder.database).search(ChatQuery(text: "ラーメン"))
        #expect(found.map(\.messageID) == ["old1"], "the migration indexes rows written before it")
    }

    /// Version 2 to 3: a gift's size is `count` (its values kept), viewers get their name keys.
    @Test func aFileAtVersionTwoGetsCountAndNameKeys() throws {
        let folder = TemporaryFolder()
        do {
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try ChatSchema.migrate(connection, to: 2)
            try connection.execute("""
                INSERT INTO channels (id, platform, channel) VALUES (1, 'twitch', 'streamer');
                INSERT INTO sessions (id, channel_id, stream, started_at, last_seen_at) VALUES (1, 1, 1, 1, 1);
                INSERT INTO viewers (id, channel_id, user, login, name) VALUES (1, 1, 'alice', 'alice', 'ＡＬＩＣＥ');
                INSERT INTO messages (session, stream, channel_id, message_id, viewer, name, kind, text, gift_name, amount,
                                      time, verdict)
                VALUES (1, 1, 1, 'g1', 1, 'Alice', 'gift', '', 'Bits', 500, 2, 'shown');
                """)
        }
        _ = try ChatStore(path: folder.database)
        let reader = try ChatReader(path: folder.database)
        #expect(try reader.recent(after: 0, limit: 10).map(\.count) == [500])
        #expect(try reader.connection.scalarText("SELECT name_key FROM viewers WHERE id = 1") == "alice")
        #expect(try reader.someoneElse(on: testChannel, isNamed: "alice", not: "bob"))
    }

    @Test func aFileFromANewerCommentBarIsNotWritten() throws {
        let folder = TemporaryFolder()
        do {
            let connection = try SQLiteConnection(path: folder.database, mode: .create)
            try connection.execute("PRAGMA user_version = 99")
        }
        #expect(throws: ChatSchema.TooNew.self) { _ = try ChatStore(path: folder.database) }
        let memory = ChatMemory(path: folder.database, log: CapturedLog().logger)
        #expect(eventually { memory.problem != nil })
        #expect(memory.problem?.contains("newer CommentBar") == true)
        memory.close()
        let connection = try SQLiteConnection(path: folder.database, mode: .readWrite)
        #expect(try connection.scalarInt("PRAGMA user_version") == 99)
    }
}
