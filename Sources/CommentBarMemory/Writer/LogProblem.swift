// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The chat log's problems in words: a short text for the bar's status line, and the detail
/// (the file, SQLite's or the system's own message) for the log line said once beside it.
enum LogProblem {
    /// The status text and the log line's detail for a failure to open or write `path`.
    static func describe(_ error: any Error, path: String) -> (text: String, detail: String) {
        switch error {
        case let sqlite as SQLiteError where sqlite.isFull:
            return (diskFull, "\(path): \(sqlite.message)")
        case let sqlite as SQLiteError where sqlite.isReadOnly:
            return (cannotWrite, "\(path): \(sqlite.message) (a read-only folder or file?)")
        case let sqlite as SQLiteError where sqlite.isBusy:
            return (busy, "\(path): \(sqlite.message) (another program holds its write lock)")
        case let file as MemoryFiles.FileError where file.code == ENOSPC:
            return (diskFull, file.description)
        case let file as MemoryFiles.FileError:
            return (cannotWrite, file.description)
        case let tooNew as ChatSchema.TooNew:
            return ("chat log: made by a newer CommentBar; not written",
                    "\(path) has schema version \(tooNew.version); this renderer knows \(ChatSchema.currentVersion)")
        default:
            return ("chat log: cannot be written; comments are not saved", "\(path): \(error)")
        }
    }

    static let diskFull = "chat log: the disk is full; comments are not saved"
    static let cannotWrite = "chat log: cannot write its file; comments are not saved"
    /// Another program (a `commentbar log prune`, a database browser) holds the write lock: the
    /// comments are kept and written once it lets go.
    static let busy = "chat log: another program is writing it; comments wait"
    /// Shown for `LogFile.noticeSeconds` after a damaged file was replaced.
    static let replaced = "chat log was damaged: moved aside, a new one started"

    /// The log line for a damaged file moved aside.
    static func movedAside(_ path: String, to aside: String, because error: SQLiteError) -> String {
        "chat log: \(path) is damaged (\(error.message)); moved aside to \(aside), a new log is started"
    }
}
