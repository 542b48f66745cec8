// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Logging
import Synchronization

/// One chat log file in use by this process: the writer thread, a reader for the feed path's
/// viewer look-up, a thread of its own with another reader for the control page's queries
/// (`ChatMemory+Queries`), and the viewers in memory. Thread-safe; nothing here waits for the
/// disk on the feed path except a cache miss's one indexed read, and nothing the control page
/// asks runs on the caller's thread.
public final class ChatMemory: Sendable {
    public let path: String
    let writer: MemoryWriter
    let shared: Shared
    let queries = QueryThread()
    private let problems: ProblemReporter
    private let tokens = Atomic<UInt64>(0)

    final class Shared: Sendable {
        let path: String
        /// The feed path's reader and viewers (held for a look-up: microseconds, a cache miss's
        /// indexed read at most).
        let lookup = Mutex(Lookup())
        /// The queries' reader: used only on the query thread, so a long search never holds up
        /// the feed path.
        let query = Mutex(ReaderSlot())
        /// The bar's filters now: the control page's answers mask nicknames with its NG words.
        let filters = Mutex(ChatFilters.none)

        init(path: String) { self.path = path }
    }

    struct Lookup {
        var slot = ReaderSlot()
        var book = ViewerBook()
        /// When each open session began (unix seconds), by token.
        var sessionsBegan: [UInt64: Double] = [:]
    }

    /// `waitForOpen`: how long the first comments may wait for the file to be opened (and
    /// migrated), rather than have every viewer taken for unknown: a disk that hangs holds them
    /// at most this long. Nil: no wait here (`MemoryHook` waits in its feeds' tasks, never
    /// holding a thread: `opened(timeout:)`). `problemChanged`: `problem` changed.
    public init(path: String, log: Logger, waitForOpen: Duration? = .seconds(2),
                problemChanged: @escaping @Sendable () -> Void = {}) {
        self.path = path
        let shared = Shared(path: path)
        self.shared = shared
        // The writer logs each problem's detail itself, once; the reporter keeps the text.
        let problems = ProblemReporter(log: nil, changed: problemChanged)
        self.problems = problems
        writer = MemoryWriter(path: path, log: log, problems: problems, events: MemoryWriter.Events(
            externalChange: { shared.lookup.withLock { $0.book.invalidate() } },
            opened: {
                shared.lookup.withLock { $0.slot.reset() }
                shared.query.withLock { $0.reset() }
            },
            nicknamesUndone: { keys in shared.lookup.withLock { $0.book.refresh(keys) } }))
        if let waitForOpen { writer.waitForFirstOpen(timeout: waitForOpen) }
    }

    /// Suspends until the writer has tried to open the file once (at most `timeout`).
    public func opened(timeout: Duration) async { await writer.firstOpen(timeout: timeout) }

    /// Items queued for the writer and not yet taken (the benchmark keeps within the bound).
    package var backlog: Int { writer.backlog }
    /// Transactions the writer has written (its batching, for the tests).
    var transactions: Int { writer.transactions }

    /// Why the log is not being written, for the bar's status line (nil: it is).
    public var problem: String? { problems.current }

    // MARK: the feed path

    /// A run of the bar on a channel begins; returns the token its events carry.
    public func openSession(_ channel: ChannelRef, now: Double) -> UInt64 {
        let token = tokens.add(1, ordering: .relaxed).newValue
        shared.lookup.withLock { $0.sessionsBegan[token] = now }
        writer.enqueue(.openSession(token: token, channel: channel, at: now))
        return token
    }

    public func endSession(_ token: UInt64, now: Double) {
        shared.lookup.withLock { $0.sessionsBegan[token] = nil }
        writer.enqueue(.endSession(token: token, at: now))
    }

    /// A comment or gift arrived: looks its writer up, logs it, and returns the row as the bar
    /// should show it (nickname, colour, voice, badges), or nil when the viewer is hidden. A comment
    /// the filters show may set its writer's nickname (`@name`: `NicknameRules`); `reserved`:
    /// the channel's other names, which nobody may take.
    public func receive(_ original: ChatLine, session: UInt64, channel: ChannelRef, options: MemoryOptions,
                        now: Double, reserved: [String] = []) -> ChatLine? {
        var line = original
        line.channel = channel.channel
        let key = ViewerKey(channel: channel, line: original)
        let isGift = if case .gift = original.kind { true } else { false }
        let wanted = options.nicknamesFromChat && !original.isHistory && original.kind == .comment
            ? ChatNickname.find(in: original.text) : nil
        let path = shared.path
        return shared.lookup.withLock { lookup -> ChatLine? in
            let reader = lookup.slot.get(path)
            var entry = lookup.book.entry(key, reader: reader, streamBegan: lookup.sessionsBegan[session])
            entry.saw(original)
            var record = MessageRecord(session: session, line: original, time: now, hiddenByMemory: entry.hidden,
                                       firstTime: false, nicknameFromChat: nil)
            if !original.isHistory {
                // Hidden rows never badge nor name anyone, and leave the badge for the viewer's
                // first row shown. The filters are asked only when it matters (they fold the text).
                var shown: Bool?
                func isShown() -> Bool {
                    if let shown { return shown }
                    shown = !entry.hidden && options.filters.apply(original, isFirstMessage: false) != nil
                    return shown ?? false
                }
                let firstEver = (entry.known && !entry.wroteBefore) || original.platformFirstMessage
                let days = Double(options.welcomeBackDays)
                let back = entry.known && entry.wroteBefore && days > 0
                    && entry.lastSeen.map { now - $0 >= days * 86_400 } ?? false
                if !entry.greeted, firstEver || back, isShown() {
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
                if let wanted, wanted != entry.nickname, isShown(),
                   NicknameRules.allows(wanted, for: key, reserved: reserved, filters: options.filters, book: lookup.book,
                                        committed: writer.committed, reader: reader) {
                    lookup.book.nicknameSet(by: original.id, on: channel, for: key, before: entry.nickname, set: wanted)
                    entry.nickname = wanted
                    record.nicknameFromChat = wanted
                }
            }
            entry.pending = writer.enqueue(.message(record))
            lookup.book.keep(entry, for: key, committed: writer.committed)
            guard !entry.hidden else { return nil }
            line.nickname = entry.nickname
            line.earlierStreams = entry.earlierStreams
            if let colour = entry.colour { line.color = colour }
            if let voice = entry.voice { line.voice = voice }
            return line
        }
    }

    /// A moderator deleted a message: the log loses its text, and a nickname it set is undone.
    public func delete(messageID: String, session: UInt64, channel: ChannelRef, now: Double) {
        shared.lookup.withLock { $0.book.undoNicknames(on: channel, messageID: messageID) }
        writer.enqueue(.delete(token: session, messageID: messageID, at: now))
    }

    /// A ban or timeout: the user's recent messages lose their text, and the nicknames they set
    /// are undone.
    public func deleteMessages(ofUser user: String, session: UInt64, channel: ChannelRef, now: Double) {
        shared.lookup.withLock { $0.book.undoNicknames(on: channel, user: ViewerKey(channel: channel, user: user)) }
        writer.enqueue(.deleteUser(token: session, user: user, at: now))
    }

    /// The filters the bar uses now (the verdict kept with each row).
    public func setFilters(_ filters: ChatFilters) {
        shared.filters.withLock { $0 = filters }
        writer.enqueue(.filters(filters))
    }

    /// How much the log keeps: applied a few seconds after the file opens and hourly, on the
    /// writer thread.
    public func setLimits(_ limits: LogLimits) {
        writer.enqueue(.limits(limits))
    }

    /// OBS started recording at `start` (unix seconds).
    public func recordingStarted(at start: Double) {
        writer.enqueue(.recording(start: start))
    }

    /// The channel's last rows as history for a bar starting within 10 minutes of the channel's
    /// last session (an OBS restart in the middle of a stream), oldest first.
    public func history(of channel: ChannelRef, limit: Int, now: Double,
                        within: Double = MemoryOptions.historyWithin) -> [ChatLine] {
        // The feed path's own reader: a search running on the query thread never delays it.
        let path = shared.path
        let rows = shared.lookup.withLock { lookup in
            (try? lookup.slot.get(path)?.history(of: channel, limit: limit, within: within, now: now)) ?? []
        }
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

    // MARK: lifetime

    /// Waits until everything received so far is committed (tests, the end of a run).
    @discardableResult
    public func flush(timeout: Duration = .seconds(5)) -> Bool { writer.flush(timeout: timeout) }

    /// Writes what is queued, ends the open sessions and closes the file. `wait`: returns once
    /// that is done (at most 3 s); false: at once, the writer finishes by itself (a settings
    /// change must not hold the stdin loop while another program holds the file's lock).
    public func close(wait: Bool = true) {
        writer.stop(timeout: wait ? .seconds(3) : nil)
        shared.lookup.withLock { $0.slot.reader = nil }
        // The query thread's reader goes on that thread, after the search it may be running.
        queries.later { [shared] in shared.query.withLock { $0.reader = nil } }
    }
}
