// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarSupport
import Logging

/// What the writer thread does with each batch: the renderer's sessions in the file, the rows,
/// one transaction per batch. A full disk, a read-only folder or a damaged file never stop the
/// bar: they become one status text (`problems`) and one log line. A batch another program's
/// lock keeps out is held and written with the next one. Used only by the writer thread.
struct WriterWork {
    let log: Logger
    let problems: ProblemReporter
    let events: MemoryWriter.Events
    var file: LogFile
    var filters = ChatFilters.none
    /// The filters whose NG words the open file holds (nil: not saved in it yet).
    var savedFilters: ChatFilters?
    /// Viewers whose nickname a deletion undid in the batch being written.
    var undone: [ViewerKey] = []
    /// Sessions opened in the file by the batch being written: a failed transaction takes them
    /// (and only them) back.
    var openedNow: Set<UInt64> = []
    /// Sessions by the renderer's token: the channel, and the log's session once opened in
    /// this file (again after the file was replaced).
    var sessions: [UInt64: (channel: ChannelRef, started: Double, open: ChatStore.OpenSession?)] = [:]
    var lastTouch = 0.0
    var dataVersion: Int64?
    /// What keeps the log from being written (nil: nothing), and a passing notice with the time
    /// it goes (a damaged file replaced): the status line shows the first of them.
    var lasting: String?
    var notice: (text: String, until: Double)?
    var lostMessages = 0
    /// Items another program's lock kept out of the file: written first next time.
    var held: [MemoryWrite] = []
    var upkeep = LogUpkeep()

    init(path: String, log: Logger, problems: ProblemReporter, events: MemoryWriter.Events) {
        self.log = log
        self.problems = problems
        self.events = events
        file = LogFile(path: path, log: log)
    }

    var path: String { file.path }

    /// Writes `batch` (and what was held) in one transaction. False: it is held for the next
    /// round (another program holds the file's lock), so it is not on disk yet.
    mutating func write(_ batch: [MemoryWrite], now: Double) -> Bool {
        // Settings and session bookkeeping happen even while the file cannot be written.
        for item in batch {
            switch item {
            case .filters(let new): filters = new
            case .limits(let new): upkeep.limits = new
            case .openSession(let token, let channel, let at): sessions[token] = (channel, at, nil)
            default: break
            }
        }
        if let until = notice?.until, now >= until { show(notice: nil) }
        let items = held + batch
        held = []
        guard let store = openStore(now: now) else {
            lose(items.filter(\.isMessage).count)
            endSessions(in: items)
            return true
        }
        let touching = now - lastTouch >= 5 || items.contains(where: \.isMessage)
        guard !items.isEmpty || touching else { return true }
        do {
            undone = []
            openedNow = []
            try store.connection.transaction { () throws(SQLiteError) in
                if savedFilters != filters { try store.saveNGWords(filters) }
                for item in Self.latestQueues(items) { try apply(item, to: store, now: now) }
                if touching {
                    for session in sessions.values.compactMap(\.open) { try store.touch(session, at: now) }
                }
            }
            if touching { lastTouch = now }
            savedFilters = filters
            if !undone.isEmpty { events.nicknamesUndone(undone) }
            show(lasting: nil)
            noticeExternalChanges(store)
        } catch {
            // The transaction is gone: so are the sessions and channels it made.
            for token in openedNow { sessions[token]?.open = nil }
            store.forgetCachedIDs()
            if !fail(error, items: items, now: now) { return false }
        }
        endSessions(in: items)
        return true
    }

    private mutating func endSessions(in items: [MemoryWrite]) {
        for item in items {
            if case .endSession(let token, _) = item { sessions[token] = nil }
        }
    }

    private mutating func apply(_ item: MemoryWrite, to store: ChatStore, now: Double) throws(SQLiteError) {
        switch item {
        case .openSession(let token, _, _):
            _ = try session(token, in: store)
        case .endSession(let token, let at):
            if let open = sessions[token]?.open { try store.endSession(open, at: at) }
        case .message(let record):
            guard let open = try session(record.session, in: store) else { return }
            try store.insert(record, in: open, verdict: verdict(record))
        case .delete(let token, let id, let at):
            if let open = try session(token, in: store) { undone += try store.deleteMessage(id, in: open, at: at) }
        case .deleteUser(let token, let user, let at):
            if let open = try session(token, in: store) { undone += try store.deleteMessages(ofUser: user, in: open, at: at) }
        case .choices(let key, let nickname, let colour, let voice, let hidden):
            try store.setChoices(key, nickname: nickname, colour: colour, voice: voice, hidden: hidden)
        case .recording(let start):
            for token in sessions.keys {
                if let open = try session(token, in: store) { try store.recordingStarted(open, at: start) }
            }
        case .board(let record):
            try store.keep(record, now: now)
        case .filters, .limits:
            break
        }
    }

    /// `items` without the queues a later item of the batch writes again (a burst of joins is
    /// one queue written, not one per join).
    static func latestQueues(_ items: [MemoryWrite]) -> [MemoryWrite] {
        var seen: Set<String> = []
        var kept: [MemoryWrite] = []
        kept.reserveCapacity(items.count)
        for item in items.reversed() {
            if let source = item.queueSource, !seen.insert(source).inserted { continue }
            kept.append(item)
        }
        return kept.reversed()
    }

    /// The log's session for a token, opened in this file if it is not yet.
    private mutating func session(_ token: UInt64, in store: ChatStore) throws(SQLiteError) -> ChatStore.OpenSession? {
        guard let known = sessions[token] else { return nil }
        if let open = known.open { return open }
        let open = try store.openSession(known.channel, at: known.started)
        sessions[token]?.open = open
        openedNow.insert(token)
        return open
    }

    private func verdict(_ record: MessageRecord) -> Verdict {
        if record.hiddenByMemory { return .hidden }
        guard let shown = filters.apply(record.line, isFirstMessage: false) else { return .hidden }
        return shown.text == record.line.text ? .shown : .masked
    }

    /// The open file, or nil while it cannot be opened.
    private mutating func openStore(now: Double) -> ChatStore? {
        switch file.access(now: now) {
        case .open(let store):
            return store
        case .opened(let store, let replaced):
            opened(replaced: replaced, now: now)
            return store
        case .waiting:
            return nil
        case .failed(let error):
            report(error)
            return nil
        }
    }

    /// A file (first, again, or new for a damaged one) is open: sessions are opened in it anew,
    /// readers may open it.
    private mutating func opened(replaced: Bool, now: Double) {
        dataVersion = nil
        savedFilters = nil
        for token in sessions.keys { sessions[token]?.open = nil }
        upkeep.opened(now: now)
        if replaced { show(notice: (LogProblem.replaced, now + LogFile.noticeSeconds)) }
        show(lasting: nil)
        events.opened()
    }

    /// A failed transaction: written again into a new file if the old one was damaged, held if
    /// another program has the lock; otherwise its comments are lost (counted) and the problem
    /// shown. False: the items are held.
    private mutating func fail(_ error: any Error, items: [MemoryWrite], now: Double) -> Bool {
        if let sqlite = error as? SQLiteError {
            if sqlite.isBusy {
                held = Self.bounded(items, lost: &lostMessages)
                report(error)
                return false
            }
            if sqlite.isCorrupt, case .opened(let fresh, _) = file.replaceDamaged(sqlite, now: now) {
                opened(replaced: true, now: now)
                do {
                    try fresh.connection.transaction { () throws(SQLiteError) in
                        for item in items { try apply(item, to: fresh, now: now) }
                    }
                    return true
                } catch {
                    file.reopenLater(now: now)
                }
            } else if sqlite.isReadOnly || sqlite.isCorrupt {
                file.reopenLater(now: now)
            }
        }
        lose(items.filter(\.isMessage).count)
        report(error)
        return true
    }

    /// Held items, at most the writer's queue bound: past it the oldest comments go (counted).
    private static func bounded(_ items: [MemoryWrite], lost: inout Int) -> [MemoryWrite] {
        var kept = items
        if kept.count > MemoryWriter.maxQueued {
            lost += MemoryWriter.dropOldestMessages(&kept, count: kept.count - MemoryWriter.maxQueued)
        }
        return kept
    }

    private mutating func lose(_ count: Int) {
        guard count > 0 else { return }
        lostMessages += count
    }

    /// One status text, and one log line per distinct problem.
    private mutating func report(_ error: any Error) {
        let (text, detail) = LogProblem.describe(error, path: path)
        show(lasting: text, detail: detail)
    }

    private mutating func show(lasting text: String?, detail: String? = nil) {
        guard text != lasting else { return }
        if text == nil {
            if lostMessages > 0 {
                log.warning("chat log: writing again; \(lostMessages) comments were not saved meanwhile")
                lostMessages = 0
            }
            // Working again: the same fault later is news again.
            problems.forgetLogged()
        }
        lasting = text
        if problems.report(lasting ?? notice?.text), let text, let detail {
            log.error("\(text) (\(detail)); tried again every \(Int(LogFile.retryInterval)) s")
        }
    }

    private mutating func show(notice new: (text: String, until: Double)?) {
        notice = new
        problems.report(lasting ?? notice?.text)
    }

    /// The log's upkeep is under way: the writer's loop turns again soon.
    var keepingUp: Bool { upkeep.isWorking }

    /// One turn of the log's upkeep, if one is due (between batches: comments keep flowing).
    mutating func keepUp(now: Double) {
        guard let store = file.store else { return }
        do {
            if case .trimmed(let count) = try upkeep.turn(store, now: now) {
                let text = "chat log: the \(count) oldest comments were removed to keep it under \(upkeep.limits.maxMegabytes) MB"
                log.notice("\(text) (log_max_mb)")
                show(notice: (text, now + LogFile.noticeSeconds))
            }
        } catch {
            upkeep.failed(now: now)
            log.warning("chat log: upkeep stopped (tried again in \(Int(LogUpkeep.retry)) s): \(error)")
        }
    }

    /// `PRAGMA data_version` moves when another connection (another process) committed.
    private mutating func noticeExternalChanges(_ store: ChatStore) {
        guard let version = try? store.connection.scalarInt("PRAGMA data_version") else { return }
        if let known = dataVersion, known != version { events.externalChange() }
        dataVersion = version
    }

    mutating func close(now: Double) {
        if !held.isEmpty { _ = write([], now: now) }
        guard let store = file.store else { return }
        do {
            try store.connection.transaction { () throws(SQLiteError) in
                for session in sessions.values.compactMap(\.open) { try store.endSession(session, at: now) }
            }
        } catch {
            log.warning("chat log: sessions not closed: \(error)")
        }
        file.close()
    }
}
