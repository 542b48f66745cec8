// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarSupport
import Dispatch
import Logging
import Synchronization

/// The one thread that writes the chat log, off the frame loop and the feed path: a bounded
/// queue in, batched transactions out, a commit at most `batchWindow` after a comment came (so a
/// comment drawn on the bar is on disk within a second). A flush or a stop ends the window at
/// once. What it does with each batch is `WriterWork`'s; the file's life (open, retry, replace a
/// damaged one) is `LogFile`'s.
final class MemoryWriter: Sendable {
    let path: String
    private let log: Logger
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let problems: ProblemReporter
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
    /// How long the thread sleeps when nothing comes (the open sessions are touched at least
    /// this often).
    static let idleWake = Duration.seconds(5)

    struct Events: Sendable {
        /// Another process changed the file (`commentbar viewers set`): cached viewers are stale.
        var externalChange: @Sendable () -> Void = {}
        /// The file is open and up to date (at start, and after a damaged one was replaced):
        /// readers may open it.
        var opened: @Sendable () -> Void = {}
        /// A moderator's deletion undid these viewers' nicknames in the file.
        var nicknamesUndone: @Sendable ([ViewerKey]) -> Void = { _ in }
    }

    private struct Queue {
        var items: [MemoryWrite] = []
        /// Items ever queued, each item's number being the count when it was queued. The
        /// writer's first try at opening the file is item 1 (`waitForFirstOpen`).
        var queued: UInt64 = 1
        /// The highest item number written (or given up on).
        var committed: UInt64 = 0
        var dropped = 0
        var stopping = false
        /// Transactions written (with at least one item): the batching, for the tests.
        var transactions = 0
        var waiters = CommitWaiters()
    }

    /// `problems`: where the writer says what is wrong (the bar's status line).
    init(path: String, log: Logger, problems: ProblemReporter, events: Events) {
        self.path = path
        self.log = log
        self.problems = problems
        self.events = events
        // A queue of its own whose one work item is the writer's loop: an overcommitting
        // dispatch queue, so it has a thread to itself for the writer's life.
        DispatchQueue(label: "commentbar.chat-log", qos: .utility).async { [self] in run() }
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

    /// Takes out up to `count` of the oldest comments (never sessions, deletions or choices);
    /// how many went.
    static func dropOldestMessages(_ items: inout [MemoryWrite], count: Int) -> Int {
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
    /// Batches written so far (each one transaction).
    var transactions: Int { queue.withLock { $0.transactions } }

    // MARK: waiting for the writer

    /// Waits (the calling thread sleeps) until the thread has tried to open the file once, at
    /// most `timeout`: a viewer is then looked up in the file rather than taken for unknown.
    @discardableResult
    func waitForFirstOpen(timeout: Duration) -> Bool { wait(until: 1, timeout: timeout, hurry: false) }

    /// The same for a task: suspends, never holds a thread.
    @discardableResult
    func firstOpen(timeout: Duration) async -> Bool { await reached(1, timeout: timeout, hurry: false) }

    /// Waits (the calling thread sleeps) until everything queued so far is written, or `timeout`
    /// passes. The batch being gathered is written at once (the signal ends the writer's window).
    @discardableResult
    func flush(timeout: Duration = .seconds(5)) -> Bool {
        wait(until: queue.withLock { $0.queued }, timeout: timeout, hurry: true)
    }

    /// The same for a task (the control page): suspends until the writer's commit wakes it.
    @discardableResult
    func flushed(timeout: Duration) async -> Bool {
        await reached(queue.withLock { $0.queued }, timeout: timeout, hurry: true)
    }

    /// `hurry`: the batch being gathered is written now (a flush). Not for the first open: a
    /// signal nobody needs would end the first batch's window early.
    private func wait(until target: UInt64, timeout: Duration, hurry: Bool) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        guard let id = queue.withLock({ $0.committed >= target ? nil : $0.waiters.add(target: target, .thread(semaphore)) })
        else { return true }
        if hurry { wake.signal() }
        if semaphore.wait(timeout: Self.deadline(after: timeout)) == .success { return true }
        // The time ran out, unless the writer took the waiter meanwhile (it got there).
        return queue.withLock { $0.waiters.remove(id) } == nil
    }

    private func reached(_ target: UInt64, timeout: Duration, hurry: Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            guard let id = queue.withLock({ $0.committed >= target ? nil : $0.waiters.add(target: target, .task(continuation)) })
            else {
                continuation.resume(returning: true)
                return
            }
            if hurry { wake.signal() }
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: Self.deadline(after: timeout)) { [self] in
                queue.withLock { $0.waiters.remove(id) }?.resume(false)
            }
        }
    }

    /// Writes what is queued and closes the file; waits at most `timeout` (nil: does not wait,
    /// the thread finishes by itself).
    func stop(timeout: Duration? = .seconds(3)) {
        let already = queue.withLock { queue -> Bool in
            defer { queue.stopping = true }
            return queue.stopping
        }
        guard !already else { return }
        wake.signal()
        if let timeout { _ = finished.wait(timeout: Self.deadline(after: timeout)) }
    }

    static func deadline(after timeout: Duration) -> DispatchTime {
        .now() + .milliseconds(timeout.clampedMilliseconds)
    }

    // MARK: the writer thread

    private func run() {
        var work = WriterWork(path: path, log: log, problems: problems, events: events)
        _ = work.write([], now: WallClock.now())
        commit(through: 1)
        while true {
            // The upkeep's chunks follow one another closely, comments written between them.
            let idle = work.keepingUp ? Duration.milliseconds(20) : Self.idleWake
            let woken = wake.wait(timeout: Self.deadline(after: idle)) == .success
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
            // A batch held back (another program holds the file's lock) is not committed yet.
            if work.write(batch, now: WallClock.now()) { commit(through: last) }
            if stopping, queue.withLock({ $0.items.isEmpty }) { break }
            work.keepUp(now: WallClock.now())
        }
        work.close(now: WallClock.now())
        commit(through: .max)
        finished.signal()
    }

    /// Items up to `number` are on disk (or given up on): their waiters wake.
    private func commit(through number: UInt64) {
        let woken = queue.withLock { queue -> [CommitWaiters.Wake] in
            queue.committed = max(queue.committed, min(number, queue.queued))
            return queue.waiters.reached(number == .max ? .max : queue.committed)
        }
        for waiter in woken { waiter.resume(true) }
    }
}
