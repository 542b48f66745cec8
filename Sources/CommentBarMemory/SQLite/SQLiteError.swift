// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite

/// A failed SQLite call: its result code and SQLite's own message (`sqlite3_errmsg`).
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code.
    public var code: Int32
    public var message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (`SQLITE_FULL`, `SQLITE_CORRUPT`…), without the extended bits.
    public var primary: Int32 { code & 0xFF }

    /// The file is not a database, or its pages are damaged: it is moved aside and a new one started.
    public var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    /// The disk (or the user's quota) is full.
    public var isFull: Bool { primary == SQLITE_FULL }
    /// The file or its folder cannot be written (a read-only folder or file system, permissions).
    public var isReadOnly: Bool { primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM }

    public var description: String { "\(message) (SQLite error \(code))" }
}

extension SQLiteError {
    /// Another connection (another process) holds the lock the call needed, for longer than the
    /// connection's busy timeout.
    public var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    /// The call was cut short (`sqlite3_interrupt`, or a progress handler past its deadline).
    public var isInterrupted: Bool { primary == SQLITE_INTERRUPT }
}
