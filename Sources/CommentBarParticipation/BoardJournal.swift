// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarMemory
import Synchronization

/// Where a board's changes are kept (the memory's writer, issue 48), under which source: nobody
/// while the memory is off. A board notes each change under its own lock, so the records keep
/// the changes' order; the keeper only queues them (`ChatMemory.keep`), never waits for a disk.
final class BoardJournal: Sendable {
    struct Keeper: Sendable {
        var source: String
        var keep: @Sendable (BoardRecord) -> Void
    }

    private let keeper = Mutex<Keeper?>(nil)

    func set(_ keeper: Keeper?) {
        self.keeper.withLock { $0 = keeper }
    }

    /// `record` is made only when someone keeps the boards (no cost while the memory is off).
    func note(_ record: (_ source: String) -> BoardRecord?) {
        guard let keeper = keeper.withLock({ $0 }), let made = record(keeper.source) else { return }
        keeper.keep(made)
    }
}

/// Who keeps a session's boards: the source's name in the memory's file, and the memory's queue.
public struct BoardKeeping: Sendable {
    public var source: String
    public var keep: @Sendable (BoardRecord) -> Void

    public init(source: String, keep: @escaping @Sendable (BoardRecord) -> Void) {
        self.source = source
        self.keep = keep
    }

    var keeper: BoardJournal.Keeper { BoardJournal.Keeper(source: source, keep: keep) }
}
