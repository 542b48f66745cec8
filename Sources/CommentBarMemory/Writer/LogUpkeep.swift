// SPDX-License-Identifier: GPL-2.0-or-later

/// How much the chat log keeps (`log_keep_days`, `log_max_mb`; 0: no limit). Without them a
/// 100 comments/s raid adds about 3 GB an hour.
public struct LogLimits: Sendable, Equatable {
    public var keepDays: Int
    public var maxMegabytes: Int

    public init(keepDays: Int, maxMegabytes: Int) {
        self.keepDays = max(0, keepDays)
        self.maxMegabytes = max(0, maxMegabytes)
    }

    /// The settings' defaults: a year, 2 GiB.
    public static let standard = LogLimits(keepDays: 365, maxMegabytes: 2048)
}

/// The log kept within its limits, on the writer thread (never the frame loop): a few seconds
/// after the file opens, then every hour, messages older than `keepDays` go, then the oldest
/// messages until the file's pages in use are under `maxMegabytes` (viewers stay: their first
/// sighting is what makes 初見 right). The work is done a chunk per turn of the writer's loop, so
/// comments keep being written between chunks.
struct LogUpkeep {
    var limits = LogLimits.standard {
        didSet { if limits != oldValue { nextRun = min(nextRun, lastOpened + Self.firstDelay) } }
    }
    private var lastOpened = 0.0
    private var nextRun = Double.infinity
    private var phase = Phase.waiting
    private var removedForSize = 0
    private var removedForAge = 0

    private enum Phase: Equatable {
        case waiting
        /// Removing messages older than `keepDays`.
        case age
        /// Removing the oldest messages for the size cap: how many are left to remove.
        case size(remaining: Int)
        /// Merging the search index, so what it held of removed messages goes (at most so many
        /// turns more).
        case merge(turns: Int)
    }

    /// Size passes in one run: the first pass removes the messages' share of the excess, but
    /// the file does not shrink in proportion (viewers, sessions and the index's overhead stay),
    /// so it is measured again after the pages were given back.
    private var sizePasses = 0
    static let maxSizePasses = 3

    /// Turns of merging after a run removed messages: 500 pages each, 200 MB of index at most
    /// per run (what is left is merged at the next run).
    static let maxMergeTurns = 400

    /// The first run this long after the file opened (or the limits changed).
    static let firstDelay = 2.0
    static let interval = 3600.0
    /// Messages removed per turn of the writer's loop (with their search index entries).
    static let chunk = 2_000

    /// What a turn did.
    enum Turn: Equatable {
        /// Nothing due, or the run is over with nothing to say.
        case idle
        /// A chunk was removed; the next turn follows at once.
        case working
        /// The run is over, and the size cap removed this many messages (say so, once).
        case trimmed(Int)
    }

    /// The file was opened (again): the first run is due shortly.
    mutating func opened(now: Double) {
        lastOpened = now
        nextRun = now + Self.firstDelay
        phase = .waiting
        removedForSize = 0
        removedForAge = 0
    }

    /// A turn failed (another program holds the lock, the disk is full): the run stops, and
    /// starts again after `retry`.
    mutating func failed(now: Double) {
        phase = .waiting
        removedForSize = 0
        removedForAge = 0
        nextRun = now + Self.retry
    }

    static let retry = 60.0

    /// A run is under way (the writer's loop turns again soon rather than sleeping).
    var isWorking: Bool { phase != .waiting }

    /// Does one chunk of the run, if one is due.
    mutating func turn(_ store: ChatStore, now: Double) throws(SQLiteError) -> Turn {
        switch phase {
        case .waiting:
            guard now >= nextRun else { return .idle }
            sizePasses = 0
            phase = .age
            return try turn(store, now: now)
        case .age:
            if limits.keepDays > 0 {
                let removed = try store.removeOldestMessages(Self.chunk, before: now - Double(limits.keepDays) * 86_400)
                removedForAge += removed
                if removed == Self.chunk { return .working }
            }
            sizePasses += 1
            phase = .size(remaining: try excess(store))
            return .working
        case .size(let remaining) where remaining > 0:
            let removed = try store.removeOldestMessages(min(Self.chunk, remaining), before: nil)
            removedForSize += removed
            phase = .size(remaining: removed == 0 ? 0 : remaining - removed)
            return .working
        case .size:
            // An index nothing was removed from is left as FTS5 merges it by itself.
            phase = .merge(turns: removedForAge + removedForSize > 0 ? Self.maxMergeTurns : 0)
            return .working
        case .merge(let turns) where turns > 0:
            phase = try store.mergeSearchIndex() ? .merge(turns: turns - 1) : .merge(turns: 0)
            return .working
        case .merge:
            // Free pages go back to the file system; the run is over unless the file is still
            // over the cap.
            try store.releaseFreePages()
            if removedForSize > 0, sizePasses < Self.maxSizePasses, case let more = try excess(store), more > 0 {
                sizePasses += 1
                phase = .size(remaining: more)
                return .working
            }
            let trimmed = removedForSize
            removedForSize = 0
            removedForAge = 0
            phase = .waiting
            nextRun = now + Self.interval
            return trimmed > 0 ? .trimmed(trimmed) : .idle
        }
    }

    /// How many of the oldest messages to remove to bring the pages in use under 90 % of the
    /// cap: their share of the file, measured once per run (the search index gives its pages
    /// back only as its segments merge, so the size is not measured again after each chunk).
    private func excess(_ store: ChatStore) throws(SQLiteError) -> Int {
        guard limits.maxMegabytes > 0 else { return 0 }
        let (used, messages) = try store.pagesInUse()
        let cap = Double(limits.maxMegabytes) * 1_048_576
        guard Double(used) > cap, messages > 0 else { return 0 }
        let keep = cap * 0.9 / Double(used)
        return Int((Double(messages) * (1 - keep)).rounded(.up))
    }
}
