// SPDX-License-Identifier: GPL-2.0-or-later

/// The log's upkeep (`LogUpkeep`, on the writer thread): the oldest messages removed a chunk at
/// a time, the search index merged, free pages given back.
extension ChatStore {
    /// Removes up to `count` of the oldest messages (received before `before`, when given), in
    /// one transaction; how many went. Rows are numbered as they arrive, so the oldest are the
    /// lowest ids: no scan of the whole table for the age of each.
    func removeOldestMessages(_ count: Int, before: Double?) throws(SQLiteError) -> Int {
        // The oldest row is young enough: so are the others (no walk over the whole table).
        if let before, let oldest = try statement("SELECT time FROM messages ORDER BY id LIMIT 1").rows([], { $0.double(0) }).first,
           oldest >= before {
            return 0
        }
        return try connection.transaction { () throws(SQLiteError) in
            let removed = try statement("""
                DELETE FROM messages WHERE id IN (
                    SELECT id FROM messages WHERE ?2 IS NULL OR time < ?2 ORDER BY id LIMIT ?1)
                """).run([.int(count), .optional(before)])
            guard removed > 0 else { return 0 }
            // Sessions left without a message, over before the oldest message kept, go too.
            try statement("""
                DELETE FROM sessions WHERE coalesce(ended_at, last_seen_at) < coalesce(
                    (SELECT time FROM messages ORDER BY id LIMIT 1), ?1)
                AND NOT EXISTS (SELECT 1 FROM messages WHERE messages.session = sessions.id)
                """).run([.real(before ?? .infinity)])
            return removed
        }
    }

    /// A bounded step (about 500 pages written) of the search index's merging, so the pages of
    /// removed messages' entries are freed: FTS5 records a removal as a marker, dropped with the
    /// old entries only when their segments merge (a negative count merges every level). Whether
    /// there was work to do (FTS5's own measure: fewer than two changes is none).
    func mergeSearchIndex() throws(SQLiteError) -> Bool {
        try connection.transaction { () throws(SQLiteError) in
            let before = connection.totalChanges
            try connection.execute("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', -500)")
            return connection.totalChanges - before >= 2
        }
    }

    /// Free pages back to the file system (new logs are made with `auto_vacuum = INCREMENTAL`;
    /// an older log keeps them for its next rows), and the write-ahead log emptied.
    func releaseFreePages() throws(SQLiteError) {
        try connection.execute("PRAGMA incremental_vacuum")
        _ = try connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The bytes of the file's pages in use (not free), and the messages it holds.
    func pagesInUse() throws(SQLiteError) -> (bytes: Int64, messages: Int) {
        let pages = try connection.scalarInt("PRAGMA page_count") ?? 0
        let free = try connection.scalarInt("PRAGMA freelist_count") ?? 0
        let size = try connection.scalarInt("PRAGMA page_size") ?? 4096
        let messages = try connection.scalarInt("SELECT count(*) FROM messages") ?? 0
        return ((pages - free) * size, Int(messages))
    }
}
