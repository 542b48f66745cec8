// SPDX-License-Identifier: GPL-2.0-or-later
import Logging

/// The chat log's file as the writer thread holds it: opened when first needed, tried again at
/// most every `retryInterval` while it cannot be (a full disk, a read-only folder, a file from a
/// newer CommentBar), and a damaged file moved aside (never deleted) so a new one can start.
/// Used only by the writer thread.
struct LogFile {
    let path: String
    let log: Logger
    /// The open file (nil: not open now).
    private(set) var store: ChatStore?
    private var retryAt = 0.0

    /// How often a log that cannot be opened is tried again.
    static let retryInterval = 30.0
    /// How long a notice (a damaged file replaced) stays on the bar's status line.
    static let noticeSeconds = 60.0

    init(path: String, log: Logger) {
        self.path = path
        self.log = log
    }

    enum Access {
        /// Open, as it was.
        case open(ChatStore)
        /// Opened now (the first time, or again after a failure or a replacement): what was
        /// known of the old file (its sessions' ids) no longer holds. `replaced`: a damaged file
        /// was moved aside first.
        case opened(ChatStore, replaced: Bool)
        /// Not open, and not tried again yet.
        case waiting
        /// Tried now, and failed.
        case failed(any Error)
    }

    /// The file, opened if it is not (at most every `retryInterval`).
    mutating func access(now: Double) -> Access {
        if let store { return .open(store) }
        guard now >= retryAt else { return .waiting }
        do {
            let opened = try ChatStore(path: path)
            store = opened
            return .opened(opened, replaced: false)
        } catch let error as SQLiteError where error.isCorrupt {
            return replaceDamaged(error, now: now)
        } catch {
            retryAt = now + Self.retryInterval
            return .failed(error)
        }
    }

    /// Moves a damaged file aside (with its -wal and -shm) and starts a new one.
    mutating func replaceDamaged(_ error: SQLiteError, now: Double) -> Access {
        store = nil
        do {
            let aside = try MemoryFiles.moveAside(path, now: now)
            log.error("\(LogProblem.movedAside(path, to: aside, because: error))")
            let opened = try ChatStore(path: path)
            store = opened
            return .opened(opened, replaced: true)
        } catch {
            retryAt = now + Self.retryInterval
            return .failed(error)
        }
    }

    /// The file failed in a way that needs it opened again (it became read-only, or the new one
    /// failed too): closed, tried again after `retryInterval`.
    mutating func reopenLater(now: Double) {
        store = nil
        retryAt = now + Self.retryInterval
    }

    mutating func close() { store = nil }
}
