// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Logging
import Synchronization

/// One chat log file in use by this process: the writer thread, a reader for the feed path's
/// viewer look-up, another for queries (the control page, history), and the viewers in memory.
/// Thread-safe; nothing here waits for the disk on the feed path except a cache miss's one
/// indexed read.
public final class ChatMemory: Sendable {
    public let path: String
    private let writer: MemoryWriter
    private let shared: Shared
    private let tokens = Atomic<UInt64>(0)

    private final class Shared: Sendable {
        let path: String
        /// The feed path's reader and viewers.
        let lookup = Mutex(Lookup())
        /// The queries' reader (a long search never holds up the feed path).
        let query = Mutex(ReaderSlot())
        let problem = Mutex<String?>(nil)

        init(path: String) { self.path = path }
    }

    private struct Lookup {
        var slot = ReaderSlot()
        var book = ViewerBook()
    }

    /// A reader opened when first needed (after the writer made the file), again after the file
    /// was replaced, and at most every few seconds while it cannot be.
    private struct ReaderSlot {
        var reader: ChatReader?
        var fileReady = false
        var retryAt: ContinuousClock.Instant?

        mutating func get(_ path: String) -> ChatReader? {
            if let reader { return reader }
            guard fileReady else { return nil }
            let now = ContinuousClock.now
            if let retryAt, now < retryAt { return nil }
            do {
                reader = try ChatReader(path: path)
            } catch {
                retryAt = now + .seconds(5)
            }
            return reader
        }

        mutating func reset() {
            reader = nil
            fileReady = true
            retryAt = nil
        }
    }

    /// `problemChanged`: the status text for the bar changed (nil: the log works).
    public init(path: String, log: Logger, problemChanged: @escaping @Sendable (String?) -> Void = { _ in }) {
        self.path = path
        let shared = Shared(path: path)
        self.shared = shared
        writer = MemoryWriter(path: path, log: log, events: MemoryWriter.Events(
            problem: { text in
                shared.problem.withLock { $0 = text }
                problemChanged(text)
            },
            externalChange: { shared.lookup.withLock { $0.book.invalidate() } },
            opened: {
                shared.lookup.withLock { $0.slot.reset() }
                shared.query.withLock { $0.reset() }
            }))
        // Opening (and migrating) a file takes milliseconds; the first comments wait for it rather
        // than have every viewer taken for unknown. A disk that hangs holds them at most this long.
        writer.waitForFirstOpen(timeout: .seconds(2))
    }

    /// Items queued for the writer and not yet taken (the benchmark keeps within the bound).
    var backlog: Int { writer.backlog }
    /// Transactions the writer has written (its batching, for the tests).
    var transactions: Int { writer.transactions }

    /// Why the log is not being written, for the bar's status line (nil: it is).
    public var problem: String? { shared.problem.withLock { $0 } }

    // MARK: the feed path

    /// A run of the bar on a channel begins; returns the token its events carry.
    public func openSession(_ channel: ChannelRef, now: Double) -> UInt64 {
        let token = tokens.add(1, ordering: .relaxed).newValue
        writer.enqueue(.openSession(token: token, channel: channel, at: now))
        return token
    }

    public func endSession(_ token: UInt64, now: Double) {
        writer.enqueue(.endSession(token: token, at: now))
    }

    /// A comment or gift arrived: looks its writer up, logs it, and returns the row as the bar
    /// should show it (nickname, colour, badges), or nil when the viewer is hidden.
    public func receive(_ original: ChatLine, session: UInt64, channel: ChannelRef, options: MemoryOptions,
                        now: Double) -> ChatLine? {
        var line = original
        line.channel = channel.channel
        let key = ViewerKey(channel: channel, line: original)
        let isGift = if case .gift = original.kind { true } else { false }
        let chosenNickname = options.nicknamesFromChat && !original.isHistory && original.kind == .comment
            ? ChatNickname.find(in: original.text).flatMap { options.filters.allowsName($0) ? $0 : nil } : nil
        let path = shared.path
        return shared.lookup.withLock { lookup -> ChatLine? in
            var entry = lookup.book.entry(key, reader: lookup.slot.get(path))
            var record = MessageRecord(session: session, line: original, time: now, hiddenByMemory: entry.hidden,
                                       firstTime: false, nicknameFromChat: nil)
            if !original.isHistory {
                let firstEver = (entry.known && !entry.wroteBefore) || original.platformFirstMessage
                let days = Double(options.welcomeBackDays)
                let back = entry.known && entry.wroteBefore && days > 0
                    && entry.lastSeen.map { now - $0 >= days * 86_400 } ?? false
                // Hidden rows never badge, and leave the badge for the viewer's first row shown.
                if !entry.greeted, !entry.hidden, firstEver || back,
                   options.filters.apply(original, isFirstMessage: false) != nil {
                    line.marks.append(firstEver ? RowMark(.firstTime, options.labels.firstTime)
                                                : RowMark(.back, options.labels.back))
                    record.firstTime = firstEver
                    entry.greeted = true
                }
                if !isGift {
                    entry.comments += 1
                    if options.showCounts { line.marks.append(RowMark(.count, "#\(entry.comments)")) }
                }
                entry.lastSeen = now
                if let chosenNickname {
                    entry.nickname = chosenNickname
                    record.nicknameFromChat = chosenNickname
                }
                entry.pending = writer.enqueue(.message(record))
            } else {
                entry.pending = writer.enqueue(.message(record))
            }
            lookup.book.keep(entry, for: key, committed: writer.committed)
            guard !entry.hidden else { return nil }
            line.nickname = entry.nickname
            if let colour = entry.colour { line.color = colour }
            return line
        }
    }

    /// A moderator deleted a message: the log loses its text.
    public func delete(messageID: String, session: UInt64, now: Double) {
        writer.enqueue(.delete(token: session, messageID: messageID, at: now))
    }

    /// A ban or timeout: the user's recent messages lose their text.
    public func deleteMessages(ofUser user: String, session: UInt64, now: Double) {
        writer.enqueue(.deleteUser(token: session, user: user, at: now))
    }

    /// The filters the bar uses now (the verdict kept with each row).
    public func setFilters(_ filters: ChatFilters) {
        writer.enqueue(.filters(filters))
    }

    /// OBS started recording at `start` (unix seconds).
    public func recordingStarted(at start: Double) {
        writer.enqueue(.recording(start: start))
    }

    /// The channel's last rows as history for a bar starting within 10 minutes of the channel's
    /// last session (an OBS restart in the middle of a stream), oldest first.
    public func history(of channel: ChannelRef, limit: Int, now: Double,
                        within: Double = MemoryOptions.historyWithin) -> [ChatLine] {
        let rows = (try? query { reader throws(SQLiteError) in
            try reader.history(of: channel, limit: limit, within: within, now: now)
        }) ?? []
        return rows.map { row in
            let kind: ChatLine.Kind = switch row.kind {
            case "action": .action
            case "notice": .notice
            default: .comment
            }
            var line = ChatLine(id: row.messageID, user: row.name, login: row.login, text: row.text ?? "", kind: kind,
                                isHistory: true)
            line.nickname = row.nickname
            line.channel = channel.channel
            return line
        }
    }

    // MARK: the control page's API (in-process; every call is thread-safe)

    /// Rows logged after `seq` (`LoggedMessage.seq`), oldest first, at most `limit` (≤ 1000).
    /// A row is there once the writer committed it: about half a second after the bar received
    /// it (`MemoryWriter.batchWindow`).
    public func recent(after seq: Int64, limit: Int = 100, channel: ChannelRef? = nil) throws(ChatMemoryError) -> [LoggedMessage] {
        try query { reader throws(SQLiteError) in try reader.recent(after: seq, limit: min(max(limit, 0), 1000), channel: channel) }
    }

    /// Full-text search (see `ChatQuery`), newest first.
    public func search(_ request: ChatQuery) throws(ChatMemoryError) -> [LoggedMessage] {
        try query { reader throws(SQLiteError) in try reader.search(request) }
    }

    /// What the log knows of one viewer (nil: never seen nor named).
    public func viewer(_ key: ViewerKey) throws(ChatMemoryError) -> ViewerFacts? {
        try query { reader throws(SQLiteError) in try reader.viewer(key) }
    }

    /// Every viewer of a channel (or of every channel).
    public func viewers(of channel: ChannelRef?) throws(ChatMemoryError) -> [ViewerFacts] {
        try query { reader throws(SQLiteError) in try reader.viewers(of: channel) }
    }

    /// Sets a viewer's nickname, colour or hidden flag (`.clear` removes a choice), and returns
    /// once it is written (normally within 0.2 s; false if `timeout` passed first). The bar uses
    /// it from that viewer's next row on.
    @discardableResult
    public func setViewer(_ key: ViewerKey, nickname: ViewerChoice<String> = .keep, colour: ViewerChoice<RGBColor> = .keep,
                          hidden: Bool? = nil, timeout: Duration = .seconds(2)) -> Bool {
        let nickname = nickname.map { TextSanitizer.clean($0, limit: TextSanitizer.maxNameScalars) }
        shared.lookup.withLock { $0.book.apply(key, nickname: nickname, colour: colour, hidden: hidden) }
        writer.enqueue(.choices(key, nickname: nickname, colour: colour, hidden: hidden))
        // A viewer not in memory yet is read from the file at their next row: the choice must be there.
        return writer.flush(timeout: timeout)
    }

    private func query<T: Sendable>(_ body: (ChatReader) throws(SQLiteError) -> T) throws(ChatMemoryError) -> T {
        let path = shared.path
        let problem = self.problem
        return try shared.query.withLock { slot throws(ChatMemoryError) -> T in
            guard let reader = slot.get(path) else {
                throw ChatMemoryError(problem ?? "the chat log is not open yet")
            }
            do {
                return try body(reader)
            } catch {
                throw ChatMemoryError("\(error)")
            }
        }
    }

    // MARK: lifetime

    /// Waits until everything received so far is committed (tests, the end of a run).
    @discardableResult
    public func flush(timeout: Duration = .seconds(5)) -> Bool { writer.flush(timeout: timeout) }

    /// Writes what is queued, ends the open sessions and closes the file.
    public func close() {
        writer.stop()
        shared.lookup.withLock { $0.slot.reader = nil }
        shared.query.withLock { $0.reader = nil }
    }
}

/// Why a call of the control page, or a `commentbar log`/`viewers` command, could not be done:
/// a message for a person.
public struct ChatMemoryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What the bar's settings ask of the memory.
public struct MemoryOptions: Sendable, Equatable {
    public var labels: RowLabels
    public var welcomeBackDays: Int
    public var nicknamesFromChat: Bool
    public var showCounts: Bool
    /// NG words apply to nicknames; the first-time badge waits for a row the filters show.
    public var filters: ChatFilters

    /// History from the log is shown when the channel's last session ended less than this long ago.
    public static let historyWithin = 600.0

    public init(labels: RowLabels = RowLabels(firstTimeSetting: "", locale: nil), welcomeBackDays: Int = 30,
                nicknamesFromChat: Bool = true, showCounts: Bool = false, filters: ChatFilters = .none) {
        self.labels = labels
        self.welcomeBackDays = welcomeBackDays
        self.nicknamesFromChat = nicknamesFromChat
        self.showCounts = showCounts
        self.filters = filters
    }
}
