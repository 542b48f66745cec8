// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The chat log as `commentbar log` and `commentbar viewers` use it: one file, opened for one
/// command on one thread (a renderer may be writing it at the same time: WAL).
public final class ChatLog {
    public let path: String
    private let store: ChatStore
    private let reader: ChatReader

    /// Opens an existing log (a command never makes an empty one where a path was mistyped).
    public init(path: String) throws(ChatMemoryError) {
        self.path = path
        try Self.requireFile(path)
        do {
            store = try ChatStore(path: path, create: false)
            reader = try ChatReader(path: path)
        } catch let tooNew as ChatSchema.TooNew {
            throw ChatMemoryError("\(path) was made by a newer CommentBar (schema \(tooNew.version)); this one knows \(ChatSchema.currentVersion)")
        } catch {
            throw ChatMemoryError("cannot open the chat log \(path): \(error)")
        }
    }

    /// A command never makes an empty log where a path was mistyped.
    static func requireFile(_ path: String) throws(ChatMemoryError) {
        guard MemoryFiles.exists(path) else {
            throw ChatMemoryError("no chat log at \(path) (it is made when a bar with remember on reads a live stream; --db names another)")
        }
    }

    /// `body`'s SQLite failure as a message naming the file.
    static func run<T>(on path: String, _ body: () throws(SQLiteError) -> T) throws(ChatMemoryError) -> T {
        do {
            return try body()
        } catch {
            throw ChatMemoryError("\(path): \(error.description)")
        }
    }

    private func run<T>(_ body: () throws(SQLiteError) -> T) throws(ChatMemoryError) -> T {
        try Self.run(on: path, body)
    }

    /// Matches, newest first; nicknames as the bar shows them (the NG words it last used).
    public func search(_ query: ChatQuery) throws(ChatMemoryError) -> [LoggedMessage] {
        try run { () throws(SQLiteError) in
            let filters = try reader.savedFilters()
            return try reader.search(query).map { $0.maskingNickname(filters) }
        }
    }

    public func viewers(of channel: ChannelRef?) throws(ChatMemoryError) -> [ViewerFacts] {
        try run { () throws(SQLiteError) in
            let filters = try reader.savedFilters()
            return try reader.viewers(of: channel).map { $0.maskingNickname(filters) }
        }
    }

    /// `latest` (of a channel, if given) or a session's number.
    public func session(_ selector: String, channel: ChannelRef? = nil) throws(ChatMemoryError) -> SessionInfo {
        let found: SessionInfo?
        if selector == "latest" {
            found = try run { () throws(SQLiteError) in try reader.latestSession(of: channel) }
        } else if let id = Int64(selector), id > 0 {
            found = try run { () throws(SQLiteError) in try reader.session(id: id) }
        } else {
            throw ChatMemoryError("--session must be latest or a session number (got \(selector))")
        }
        guard let found else {
            throw ChatMemoryError(selector == "latest" ? "the chat log has no session yet" : "no session \(selector) in the chat log")
        }
        return found
    }

    /// Writes the stream of `session` (every session that ran with it) in `format`.
    public func export(_ session: SessionInfo, format: ChatExport.Format, to write: (String) -> Void) throws(ChatMemoryError) {
        let (sessions, messages, filters) = try run { () throws(SQLiteError) in
            (try reader.sessions(inStream: session.stream), try reader.messages(inStream: session.stream), try reader.savedFilters())
        }
        ChatExport.write(messages, format: format, timeBase: ChatExport.timeBase(session: session, streamSessions: sessions),
                         filters: filters, to: write)
    }

    public func setViewer(_ key: ViewerKey, nickname: FieldChange<String> = .keep, colour: FieldChange<RGBColor> = .keep,
                          voice: FieldChange<String> = .keep, hidden: Bool? = nil) throws(ChatMemoryError) {
        let nickname = try ChatNickname.change(nickname)
        let voice = try ViewerVoice.change(voice)
        try run { () throws(SQLiteError) in
            try store.connection.transaction { () throws(SQLiteError) in
                try store.setChoices(key, nickname: nickname, colour: colour, voice: voice, hidden: hidden)
            }
        }
    }

    /// Deletes a user's viewer rows and messages on every channel.
    public func forget(user: String) throws(ChatMemoryError) -> (viewers: Int, messages: Int) {
        try run { () throws(SQLiteError) in try store.forget(user: user) }
    }

    /// Deletes messages received before `time`; returns how many.
    public func prune(before time: Double) throws(ChatMemoryError) -> Int {
        try run { () throws(SQLiteError) in try store.prune(before: time) }
    }

    public func integrityCheck() throws(ChatMemoryError) -> String {
        try run { () throws(SQLiteError) in try store.integrityCheck() }
    }

    /// A date as `--since` takes it: `YYYY-MM-DD[ HH:MM[:SS]]` in local time (SQLite's date
    /// parser), or a span back from now: `30m`, `12h`, `7d`.
    public func time(parsing text: String, now: Double) -> Double? {
        let trimmed = text.trimmingWhitespace()
        if let unit = trimmed.last, let count = Double(trimmed.dropLast()), count >= 0, count.isFinite {
            switch unit {
            case "m": return now - count * 60
            case "h": return now - count * 3600
            case "d": return now - count * 86_400
            default: break
            }
        }
        guard let seconds = try? store.connection.scalarText("SELECT strftime('%s', ?1, 'utc')", [.text(trimmed)]) else {
            return nil
        }
        return Double(seconds)
    }
}
