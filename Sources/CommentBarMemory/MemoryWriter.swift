// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import Dispatch
import Glibc
import Logging
import Synchronization

/// What the writer thread is told, in order.
enum MemoryWrite: Sendable {
    case openSession(token: UInt64, channel: ChannelRef, at: Double)
    case endSession(token: UInt64, at: Double)
    case message(MessageRecord)
    case delete(token: UInt64, messageID: String, at: Double)
    case deleteUser(token: UInt64, user: String, at: Double)
    case choices(ViewerKey, nickname: ViewerChoice<String>, colour: ViewerChoice<RGBColor>, hidden: Bool?)
    /// OBS started recording at this time: the open sessions' subtitles are timed to it.
    case recording(start: Double)
    /// The bar's filters, for the verdict kept with each row.
    case filters(ChatFilters)

    var isMessage: Bool {
        if case .message = self { return true }
        return false
    }
}

/// The one thread that writes the chat log, off the frame loop and the feed path: a bounded
/// queue in, batched transactions out, a commit at most `batchWindow` after a comment came (so a
/// comment drawn on the bar is on disk within a second). A flush or a stop ends the window at
/// once. A full disk, a read-only folder or a damaged file never stop the bar: they become one
/// status text and one log line, and a damaged file is moved aside (never deleted) and a new one
/// started.
final class MemoryWriter: Sendable {
    let path: String
    private let log: Logger
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    /// Signalled once the thread has tried to open the file.
    private let firstOpen = DispatchSemaphore(value: 0)
    private let events: Events

    /// How long the writer gathers a batch after the first item comes. Each commit costs the
    /// pages it touches (the row, its indexes, the search index, the viewer, the session): at
    /// 10 comments/s a 100 ms window made about 8 commits a second, this one makes 2, and a
    /// comment is still on disk well within a second (`kill -9` loses at most this window and
    /// the write).
    static let batchWindow = Duration.milliseconds(500)
    /// A batch this big is written at once, not after the window: a backlog (a burst, a disk that
    /// stalled) would otherwise be written a window's worth at a time, however fast the disk.
    static let fullBatch = 1_000
    /// The queue's bound: 20 s of a 1,000 comments/s chat while the disk stalls. Past it the
    /// oldest comments are dropped (counted, logged), never the sessions' starts and ends.
    static let maxQueued = 20_000
    /// How often a log that cannot be opened is tried again.
    static let retryInterval = 30.0
    /// How long a moved-aside file is named on the bar's status line.
    static let noticeSeconds = 60.0

    struct Events: Sendable {
        /// The status text for the bar changed (nil: the log works).
        var problem: @Sendable (String?) -> Void = { _ in }
        /// Another process changed the file (`commentbar viewers set`): cached viewers are stale.
        var externalChange: @Sendable () -> Void = {}
        /// The file is open and up to date (at start, and after a damaged one was replaced):
        /// readers may open it.
        var opened: @Sendable () -> Void = {}
    }

    private struct Queue {
        var items: [MemoryWrite] = []
        /// Items ever queued (each item's number is the count when it was queued).
        var queued: UInt64 = 0
        /// The highest item number written (or given up on).
        var committed: UInt64 = 0
        var dropped = 0
        var stopping = false
        /// Transactions written (with at least one item): the batching, for the tests.
        var transactions = 0
    }

    init(path: String, log: Logger, events: Events) {
        self.path = path
        self.log = log
        self.events = events
        // A queue of its own whose one work item is the writer's loop: an overcommitting
        // dispatch queue, so it has a thread to itself for the writer's life.
        DispatchQueue(label: "commentbar.chat-log", qos: .utility).async { [self] in run() }
    }

    /// Waits until the thread has tried to open the file once (at most `timeout`): a viewer is
    /// then looked up in the file rather than taken for unknown.
    func waitForFirstOpen(timeout: Duration) {
        if firstOpen.wait(timeout: Self.deadline(after: timeout)) == .success { firstOpen.signal() }
    }

    /// Queues one item; never waits for the disk. Returns its number (see `committed`).
    @discardableResult
    func enqueue(_ item: MemoryWrite) -> UInt64 {
        let (number, signal, dropped) = queue.withLock { queue -> (UInt64, Bool, Int) in
            // Into an empty queue: the writer's window begins; at a full batch: it ends.
            let wake = queue.items.isEmpty || queue.items.count + 1 == Self.fullBatch
            var dropped = 0
            if queue.items.count >= Self.maxQueued {
                dropped = Self.dropOldestMessages(&queue.items, count: Self.maxQueued / 10)
                queue.dropped += dropped
            }
            queue.items.append(item)
            queue.queued += 1
            return (queue.queued, wake, dropped)
        }
        if dropped > 0 {
            log.error("chat log: the writer is \(Self.maxQueued) items behind; the \(dropped) oldest comments were not saved")
        }
        if signal { wake.signal() }
        return number
    }

    private static func dropOldestMessages(_ items: inout [MemoryWrite], count: Int) -> Int {
        var dropped = 0
        items.removeAll { item in
            guard dropped < count, item.isMessage else { return false }
            dropped += 1
            return true
        }
        return dropped
    }

    /// The highest item number on disk (or given up on: the log could not be written).
    var committed: UInt64 { queue.withLock { $0.committed } }
    /// Items waiting for the writer.
    var backlog: Int { queue.withLock { $0.items.count } }
    /// Comments dropped because the queue was full.
    var droppedForSpace: Int { queue.withLock { $0.dropped } }
    /// Batches written so far (each one transaction).
    var transactions: Int { queue.withLock { $0.transactions } }

    /// Waits (polling) until everything queued so far is written, or `timeout` passes. The
    /// batch being gathered is written at once (the signal ends the writer's window).
    @discardableResult
    func flush(timeout: Duration = .seconds(5)) -> Bool {
        let target = queue.withLock { $0.queued }
        guard committed < target else { return true }
        wake.signal()
        let deadline = ContinuousClock.now + timeout
        while committed < target {
            if ContinuousClock.now >= deadline { return false }
            usleep(2_000)
        }
        return true
    }

    /// Writes what is queued and closes the file; waits at most `timeout`.
    func stop(timeout: Duration = .seconds(3)) {
        let already = queue.withLock { queue -> Bool in
            defer { queue.stopping = true }
            return queue.stopping
        }
        guard !already else { return }
        wake.signal()
        _ = finished.wait(timeout: Self.deadline(after: timeout))
    }

    private static func deadline(after timeout: Duration) -> DispatchTime {
        .now() + .milliseconds(Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
    }

    // MARK: the writer thread

    private func run() {
        var work = WriterWork(path: path, log: log, events: events)
        work.write([], now: MemoryClock.now())
        firstOpen.signal()
        while true {
            let woken = wake.wait(timeout: .now() + .seconds(5)) == .success
            if woken, queue.withLock({ !$0.stopping && !$0.items.isEmpty && $0.items.count < Self.fullBatch }) {
                // The window: more items join the batch. `enqueue` signals into an empty queue
                // and at a full batch, so a signal now is a full batch, a flush or a stop, and
                // ends it.
                _ = wake.wait(timeout: Self.deadline(after: Self.batchWindow))
            }
            let (batch, last, stopping) = queue.withLock { queue -> ([MemoryWrite], UInt64, Bool) in
                defer {
                    if !queue.items.isEmpty { queue.transactions += 1 }
                    queue.items.removeAll(keepingCapacity: true)
                }
                return (queue.items, queue.queued, queue.stopping)
            }
            work.write(batch, now: MemoryClock.now())
            queue.withLock { $0.committed = max($0.committed, last) }
            if stopping, queue.withLock({ $0.items.isEmpty }) { break }
        }
        work.close(now: MemoryClock.now())
        finished.signal()
    }
}

/// The writer thread's own state: the open file, its sessions, what is wrong. Used only by
/// that thread.
private struct WriterWork {
    let path: String
    let log: Logger
    let events: MemoryWriter.Events
    var store: ChatStore?
    var retryAt = 0.0
    var filters = ChatFilters.none
    /// Sessions by the renderer's token: the channel, and the log's session once opened in
    /// this file (again after the file was replaced).
    var sessions: [UInt64: (channel: ChannelRef, started: Double, open: ChatStore.OpenSession?)] = [:]
    var lastTouch = 0.0
    var dataVersion: Int64?
    /// What the bar's status line says, and until when (nil: for as long as it is true).
    var problem: (text: String, until: Double?)?
    var lostMessages = 0

    init(path: String, log: Logger, events: MemoryWriter.Events) {
        self.path = path
        self.log = log
        self.events = events
    }

    mutating func write(_ batch: [MemoryWrite], now: Double) {
        // Settings and session bookkeeping happen even while the file cannot be written.
        for item in batch {
            switch item {
            case .filters(let new): filters = new
            case .openSession(let token, let channel, let at): sessions[token] = (channel, at, nil)
            default: break
            }
        }
        if let until = problem?.until, now >= until { show(nil) }
        guard let store = openStore(now: now) else {
            lose(batch.filter(\.isMessage).count)
            return
        }
        let touching = now - lastTouch >= 5 || batch.contains(where: \.isMessage)
        guard !batch.isEmpty || touching else { return }
        do {
            try store.connection.transaction { () throws(SQLiteError) in
                for item in batch { try apply(item, to: store, now: now) }
                if touching {
                    for session in sessions.values.compactMap(\.open) { try store.touch(session, at: now) }
                }
            }
            if touching { lastTouch = now }
            if problem != nil, problem?.until == nil { show(nil) }
            noticeExternalChanges(store)
        } catch {
            // The transaction is gone: so are the sessions and channels it made.
            for token in sessions.keys { sessions[token]?.open = nil }
            store.forgetCachedIDs()
            fail(error, batch: batch, now: now)
        }
        for item in batch {
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
            if let open = try session(token, in: store) { try store.deleteMessage(id, in: open, at: at) }
        case .deleteUser(let token, let user, let at):
            if let open = try session(token, in: store) { try store.deleteMessages(ofUser: user, in: open, at: at) }
        case .choices(let key, let nickname, let colour, let hidden):
            try store.setChoices(key, nickname: nickname, colour: colour, hidden: hidden)
        case .recording(let start):
            for token in sessions.keys {
                if let open = try session(token, in: store) { try store.recordingStarted(open, at: start) }
            }
        case .filters:
            break
        }
    }

    /// The log's session for a token, opened in this file if it is not yet.
    private mutating func session(_ token: UInt64, in store: ChatStore) throws(SQLiteError) -> ChatStore.OpenSession? {
        guard let known = sessions[token] else { return nil }
        if let open = known.open { return open }
        let open = try store.openSession(known.channel, at: known.started)
        sessions[token]?.open = open
        return open
    }

    private func verdict(_ record: MessageRecord) -> Verdict {
        if record.hiddenByMemory { return .hidden }
        guard let shown = filters.apply(record.line, isFirstMessage: false) else { return .hidden }
        return shown.text == record.line.text ? .shown : .masked
    }

    /// The open file, or nil while it cannot be opened (tried again every `retryInterval`).
    private mutating func openStore(now: Double) -> ChatStore? {
        if let store { return store }
        guard now >= retryAt else { return nil }
        do {
            let opened = try ChatStore(path: path)
            store = opened
            dataVersion = nil
            for token in sessions.keys { sessions[token]?.open = nil }
            if problem?.until == nil { show(nil) }
            events.opened()
            return opened
        } catch let error as SQLiteError where error.isCorrupt {
            return replaceDamaged(error, now: now)
        } catch {
            retryAt = now + MemoryWriter.retryInterval
            report(error, now: now)
            return nil
        }
    }

    /// Moves a damaged file aside and starts a new one.
    private mutating func replaceDamaged(_ error: SQLiteError, now: Double) -> ChatStore? {
        store = nil
        do {
            let aside = try MemoryFiles.moveAside(path, now: now)
            log.error("chat log: \(path) is damaged (\(error.message)); moved aside to \(aside), a new log is started")
            let opened = try ChatStore(path: path)
            store = opened
            dataVersion = nil
            for token in sessions.keys { sessions[token]?.open = nil }
            show("chat log was damaged: moved aside, a new one started", until: now + MemoryWriter.noticeSeconds)
            events.opened()
            return opened
        } catch {
            retryAt = now + MemoryWriter.retryInterval
            report(error, now: now)
            return nil
        }
    }

    private mutating func fail(_ error: any Error, batch: [MemoryWrite], now: Double) {
        if let sqlite = error as? SQLiteError, sqlite.isCorrupt {
            // Written again into the new file.
            if let fresh = replaceDamaged(sqlite, now: now) {
                do {
                    try fresh.connection.transaction { () throws(SQLiteError) in
                        for item in batch { try apply(item, to: fresh, now: now) }
                    }
                    return
                } catch {
                    store = nil
                    retryAt = now + MemoryWriter.retryInterval
                }
            }
        } else if let sqlite = error as? SQLiteError, sqlite.isReadOnly {
            store = nil
            retryAt = now + MemoryWriter.retryInterval
        }
        lose(batch.filter(\.isMessage).count)
        report(error, now: now)
    }

    private mutating func lose(_ count: Int) {
        guard count > 0 else { return }
        lostMessages += count
    }

    /// One status text and one log line per distinct problem.
    private mutating func report(_ error: any Error, now: Double) {
        let text: String
        let detail: String
        switch error {
        case let sqlite as SQLiteError where sqlite.isFull:
            text = "chat log: the disk is full; comments are not saved"
            detail = "\(path): \(sqlite.message)"
        case let sqlite as SQLiteError where sqlite.isReadOnly:
            text = "chat log: cannot write its file; comments are not saved"
            detail = "\(path): \(sqlite.message) (a read-only folder or file?)"
        case let file as MemoryFiles.FileError where file.code == ENOSPC:
            text = "chat log: the disk is full; comments are not saved"
            detail = file.description
        case let file as MemoryFiles.FileError:
            text = "chat log: cannot write its file; comments are not saved"
            detail = file.description
        case let tooNew as ChatSchema.TooNew:
            text = "chat log: made by a newer CommentBar; not written"
            detail = "\(path) has schema version \(tooNew.version); this renderer knows \(ChatSchema.currentVersion)"
        default:
            text = "chat log: cannot be written; comments are not saved"
            detail = "\(path): \(error)"
        }
        if problem?.text != text {
            log.error("\(text) (\(detail)); tried again every \(Int(MemoryWriter.retryInterval)) s")
        }
        show(text)
    }

    private mutating func show(_ text: String?, until: Double? = nil) {
        let changed = problem?.text != text
        problem = text.map { ($0, until) }
        if text == nil, lostMessages > 0 {
            log.warning("chat log: writing again; \(lostMessages) comments were not saved meanwhile")
            lostMessages = 0
        }
        if changed { events.problem(text) }
    }

    /// `PRAGMA data_version` moves when another connection (another process) committed.
    private mutating func noticeExternalChanges(_ store: ChatStore) {
        guard let version = try? store.connection.scalarInt("PRAGMA data_version") else { return }
        if let known = dataVersion, known != version { events.externalChange() }
        dataVersion = version
    }

    mutating func close(now: Double) {
        guard let store else { return }
        do {
            try store.connection.transaction { () throws(SQLiteError) in
                for session in sessions.values.compactMap(\.open) { try store.endSession(session, at: now) }
            }
        } catch {
            log.warning("chat log: sessions not closed: \(error)")
        }
        self.store = nil
    }
}
