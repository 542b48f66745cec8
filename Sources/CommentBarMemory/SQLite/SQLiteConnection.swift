// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import CSQLite
import Glibc

/// One SQLite connection, through SQLite's C API. Not thread-safe by itself: one thread uses it
/// at a time (the memory's writer thread has its own; readers share one behind a lock).
/// Values never go into SQL text: every statement with values is prepared and bound.
package final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    enum Mode {
        /// Read and write, creating the file if it is missing.
        case create
        case readWrite
        case readOnly
    }

    init(path: String, mode: Mode) throws(SQLiteError) {
        var flags: Int32 = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let opened { sqlite3_close_v2(opened) }
            throw SQLiteError(code: result, message: message)
        }
        handle = opened
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL without values (schema, pragmas, BEGIN/COMMIT): never text built from input.
    func execute(_ sql: StaticString) throws(SQLiteError) {
        try execute(trustedSQL: sql.description)
    }

    /// Runs SQL made only of this program's own constants (a migration's statements).
    func execute(trustedSQL sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        if result != SQLITE_OK { throw error(result) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw error(result) }
        return SQLiteStatement(statement, connection: self)
    }

    /// The first column of the first row of a query (a pragma's value, a count).
    package func scalarInt(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.isNull(0) ? nil : statement.int(0)
    }

    package func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        guard try statement.step() else { return nil }
        return statement.text(0)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    /// Rows changed since the connection opened (FTS5 commands count the pages they wrote).
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Waits up to this long for another connection's lock instead of failing at once.
    func setBusyTimeout(milliseconds: Int32) { sqlite3_busy_timeout(handle, milliseconds) }

    /// Runs `body` with a deadline: SQLite's progress handler, asked every thousand virtual
    /// machine steps, stops the running statement (`SQLiteError.isInterrupted`) once `limit` has
    /// passed. For reads that depend on what a user typed (a search), never for writes.
    func withDeadline<T>(_ limit: Duration, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        var deadline = Self.monotonicNanoseconds() &+ UInt64(limit.clampedNanoseconds)
        return try withUnsafeMutablePointer(to: &deadline) { (pointer) throws(SQLiteError) -> T in
            sqlite3_progress_handler(handle, 1000, { context in
                guard let context else { return 0 }
                return SQLiteConnection.monotonicNanoseconds() > context.load(as: UInt64.self) ? 1 : 0
            }, pointer)
            defer { sqlite3_progress_handler(handle, 0, nil, nil) }
            return try body()
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : code,
                    message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws.
    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A value bound to a statement's parameter.
package enum SQLiteValue: Sendable, Equatable {
    case int(Int64)
    case real(Double)
    case text(String)
    case null

    static func int(_ value: Int) -> SQLiteValue { .int(Int64(value)) }
    static func optional(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    static func optional(_ value: Double?) -> SQLiteValue { value.map(SQLiteValue.real) ?? .null }
    static func optional(_ value: Int?) -> SQLiteValue { value.map { SQLiteValue.int(Int64($0)) } ?? .null }
    static func bool(_ value: Bool) -> SQLiteValue { .int(value ? 1 : 0) }
}
