// SPDX-License-Identifier: GPL-2.0-or-later

/// The polls and giveaways the memory kept, as `commentbar poll` and `commentbar giveaway` read
/// them: the file opened for reading only (a renderer may be writing it: WAL), never migrated
/// nor made.
public final class BoardHistory {
    public let path: String
    private let reader: ChatReader
    private let hasBoards: Bool

    public init(path: String) throws(ChatMemoryError) {
        self.path = path
        try ChatLog.requireFile(path)
        do {
            reader = try ChatReader(path: path)
            hasBoards = try reader.hasBoards()
        } catch {
            throw ChatMemoryError("cannot open the chat log \(path): \(error)")
        }
    }

    private func run<T>(_ body: () throws(SQLiteError) -> T) throws(ChatMemoryError) -> T {
        try ChatLog.run(on: path, body)
    }

    /// Every poll kept, newest first (none in a log written before polls were kept).
    public func polls() throws(ChatMemoryError) -> [SavedPoll] {
        guard hasBoards else { return [] }
        return try run { () throws(SQLiteError) in try reader.polls() }
    }

    public func poll(id: Int64) throws(ChatMemoryError) -> SavedPoll {
        var found: SavedPoll?
        if hasBoards { found = try run { () throws(SQLiteError) in try reader.poll(id: id) } }
        guard let found else { throw ChatMemoryError("no poll \(id) in the chat log (commentbar poll list shows them)") }
        return found
    }

    /// Every giveaway kept, with its entrants and draws, newest first.
    public func giveaways() throws(ChatMemoryError) -> [SavedGiveaway] {
        guard hasBoards else { return [] }
        return try run { () throws(SQLiteError) in try reader.giveaways() }
    }
}
