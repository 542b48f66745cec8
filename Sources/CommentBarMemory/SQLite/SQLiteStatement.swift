// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite

/// A prepared statement: parameters bound by position (1-based), rows read by column (0-based).
/// Kept and reused (reset before each use) by the store: preparing is the costly part.
final class SQLiteStatement {
    private let statement: OpaquePointer
    /// Keeps the connection open while the statement lives.
    private let connection: SQLiteConnection

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    /// Resets the statement and binds `values` to ?1, ?2, …
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let result: Int32
            switch value {
            case .int(let number): result = sqlite3_bind_int64(statement, index, number)
            case .real(let number): result = sqlite3_bind_double(statement, index, number)
            case .null: result = sqlite3_bind_null(statement, index)
            case .text(var text):
                // The UTF-8 bytes with their length: a NUL inside cannot cut the text short.
                result = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { characters in
                        // An empty text has no address: bound as "" (a nil pointer would bind NULL).
                        guard let base = characters.baseAddress, !characters.isEmpty else {
                            return sqlite3_bind_text(statement, index, "", 0, csqlite_transient())
                        }
                        return sqlite3_bind_text(statement, index, base, Int32(characters.count), csqlite_transient())
                    }
                }
            }
            if result != SQLITE_OK { throw connection.error(result) }
        }
    }

    /// The next row: true while there is one.
    func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(statement)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = connection.error(result)
            sqlite3_reset(statement)
            throw error
        }
    }

    /// Binds, runs to the end, and resets (an INSERT, UPDATE or DELETE). Returns the rows changed.
    @discardableResult
    func run(_ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try bind(values)
        while try step() {}
        sqlite3_reset(statement)
        return connection.changes
    }

    /// Binds and reads every row with `read`.
    func rows<T>(_ values: [SQLiteValue] = [], _ read: (SQLiteStatement) -> T) throws(SQLiteError) -> [T] {
        try bind(values)
        var found: [T] = []
        while try step() { found.append(read(self)) }
        sqlite3_reset(statement)
        return found
    }

    /// `rows`, but a statement cut short (`SQLiteConnection.withDeadline`) gives the rows read
    /// before: `complete` false.
    func rowsUntilInterrupted<T>(_ values: [SQLiteValue], _ read: (SQLiteStatement) -> T) throws(SQLiteError)
        -> (rows: [T], complete: Bool) {
        try bind(values)
        var found: [T] = []
        do {
            while try step() { found.append(read(self)) }
        } catch where error.isInterrupted {
            return (found, false)
        }
        sqlite3_reset(statement)
        return (found, true)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
