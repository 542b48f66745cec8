// SPDX-License-Identifier: GPL-2.0-or-later
import Dispatch

/// Who waits for the writer to reach an item number (`MemoryWriter.flush`): a thread on a
/// semaphore, or a task on a continuation. The writer wakes those it reached after each commit;
/// a waiter whose time ran out takes itself out. Whoever takes a waiter out (the writer, or the
/// waiter's deadline) wakes it, so each is woken exactly once. Kept inside the writer's queue
/// lock.
struct CommitWaiters {
    enum Wake: Sendable {
        case thread(DispatchSemaphore)
        case task(CheckedContinuation<Bool, Never>)

        /// `reached`: the writer got there (false: the time ran out first).
        func resume(_ reached: Bool) {
            switch self {
            case .thread(let semaphore): semaphore.signal()
            case .task(let continuation): continuation.resume(returning: reached)
            }
        }
    }

    private var waiting: [UInt64: (target: UInt64, wake: Wake)] = [:]
    private var nextID: UInt64 = 0

    /// Adds a waiter for `target`; its id, for `remove`.
    mutating func add(target: UInt64, _ wake: Wake) -> UInt64 {
        nextID += 1
        waiting[nextID] = (target, wake)
        return nextID
    }

    /// Takes a waiter out (its time ran out); nil if the writer took it already.
    mutating func remove(_ id: UInt64) -> Wake? {
        waiting.removeValue(forKey: id)?.wake
    }

    /// Takes out every waiter `committed` reached, to be woken outside the lock.
    mutating func reached(_ committed: UInt64) -> [Wake] {
        let done = waiting.filter { $0.value.target <= committed }
        for id in done.keys { waiting[id] = nil }
        return done.values.map(\.wake)
    }
}
