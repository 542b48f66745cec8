// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport

/// The audience's boards in the memory (issue 48): their changes go to the writer thread with
/// the chat log's rows (a queue append under a lock: nothing here waits for the disk, a vote
/// included), and a renderer that starts reads back what its source left.
extension ChatMemory {
    /// Queues a board's change for the writer; it is on disk with the writer's next commit
    /// (at most `MemoryWriter.batchWindow` later while the disk keeps up).
    public func keep(_ record: BoardRecord) {
        writer.enqueue(.board(record))
    }

    /// What the file holds of `source`'s boards, and who said how much on the streams going on
    /// at `now`, once the writer has opened it (at most `timeout`); read on the memory's query thread.
    public func savedBoards(of source: String, now: Double = WallClock.now(),
                            timeout: Duration = .seconds(5)) async throws(ChatMemoryError) -> SavedBoards {
        await opened(timeout: timeout)
        return try await query { reader throws(SQLiteError) in try reader.savedBoards(of: source, now: now) }
    }
}
