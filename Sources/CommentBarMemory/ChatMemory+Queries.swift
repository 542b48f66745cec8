// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// The control page's API (in-process): every read runs on the memory's query thread and every
/// wait for the writer is a suspension, so a caller's thread is never held, whatever the disk,
/// the log's size or another program's lock do.
extension ChatMemory {
    /// How long a search may run before it is cut short: a 200-character run of `w` over 200,000
    /// comments took 1.5 s, and the page's next search waits behind it.
    public static let searchDeadline = Duration.milliseconds(250)

    /// Rows logged after `seq` (`LoggedMessage.seq`), oldest first, at most `limit` (≤ 1000).
    /// A row is there once the writer committed it: about half a second after the bar received
    /// it (`MemoryWriter.batchWindow`).
    public func recent(after seq: Int64, limit: Int = 100, channel: ChannelRef? = nil) async throws(ChatMemoryError)
        -> [LoggedMessage] {
        let filters = shared.filters.withLock { $0 }
        return try await query { reader throws(SQLiteError) in
            try reader.recent(after: seq, limit: min(max(limit, 0), 1000), channel: channel)
        }.map { $0.maskingNickname(filters) }
    }

    /// Full-text search (see `ChatQuery`), newest first. A search that runs past `deadline`
    /// gives the matches found by then (the newest), or says it took too long when there were
    /// none yet.
    public func search(_ request: ChatQuery, deadline: Duration = searchDeadline) async throws(ChatMemoryError)
        -> [LoggedMessage] {
        let filters = shared.filters.withLock { $0 }
        let found = try await query { reader throws(SQLiteError) in try reader.search(request, within: deadline) }
        if !found.complete && found.rows.isEmpty {
            throw ChatMemoryError("the search took too long; try a longer or rarer phrase")
        }
        return found.rows.map { $0.maskingNickname(filters) }
    }

    /// What the log knows of one viewer (nil: never seen nor named).
    public func viewer(_ key: ViewerKey) async throws(ChatMemoryError) -> ViewerFacts? {
        let filters = shared.filters.withLock { $0 }
        return try await query { reader throws(SQLiteError) in try reader.viewer(key) }?.maskingNickname(filters)
    }

    /// Every viewer of a channel (or of every channel).
    public func viewers(of channel: ChannelRef?) async throws(ChatMemoryError) -> [ViewerFacts] {
        let filters = shared.filters.withLock { $0 }
        return try await query { reader throws(SQLiteError) in try reader.viewers(of: channel) }.map { $0.maskingNickname(filters) }
    }

    /// Sets a viewer's nickname, colour, voice or hidden flag (`.clear` removes a choice). The bar
    /// uses it from that viewer's next row on; it is `saved` once written (normally within 0.2 s),
    /// `notSaved` if `timeout` passed first (another program holds the file, the disk is full).
    @discardableResult
    public func setViewer(_ key: ViewerKey, nickname: FieldChange<String> = .keep, colour: FieldChange<RGBColor> = .keep,
                          voice: FieldChange<String> = .keep, hidden: Bool? = nil,
                          timeout: Duration = .seconds(2)) async -> ViewerChange {
        let sanitized: (nickname: FieldChange<String>, voice: FieldChange<String>)
        do {
            sanitized = (try ChatNickname.change(nickname), try ViewerVoice.change(voice))
        } catch {
            return .refused(error.description)
        }
        let (nickname, voice) = sanitized
        shared.lookup.withLock { $0.book.apply(key, nickname: nickname, colour: colour, voice: voice, hidden: hidden) }
        writer.enqueue(.choices(key, nickname: nickname, colour: colour, voice: voice, hidden: hidden))
        // A viewer not in memory yet is read from the file at their next row: the choice must be there.
        guard await writer.flushed(timeout: timeout) else {
            return .notSaved(problem ?? "the chat log did not take it in time")
        }
        return .saved
    }

    /// Runs `body` with the query thread's reader, on that thread.
    func query<T: Sendable>(_ body: @escaping @Sendable (ChatReader) throws(SQLiteError) -> T) async
        throws(ChatMemoryError) -> T {
        let shared = self.shared
        let problem = self.problem
        let result = await queries.run { () -> Result<T, ChatMemoryError> in
            shared.query.withLock { slot in
                guard let reader = slot.get(shared.path) else {
                    return .failure(ChatMemoryError(problem ?? "the chat log is not open yet"))
                }
                do {
                    return .success(try body(reader))
                } catch {
                    return .failure(ChatMemoryError("\(error)"))
                }
            }
        }
        return try result.get()
    }
}

/// What became of a viewer choice made on the control page.
public enum ViewerChange: Sendable, Equatable {
    case saved
    /// Not allowed (a nickname with nothing visible in it): why.
    case refused(String)
    /// Not written in time: why (the log's problem).
    case notSaved(String)
}
