// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The actions waiting to be sent, for the one task that sends them: bounded (`limit`; past it the
/// oldest is dropped and counted, so a target that is down for long holds little and a late burst
/// is not sent long after), and awaited without polling.
final class ActionQueue: Sendable {
    let limit: Int
    private let state = Mutex(State())

    private struct State {
        var items: [DoAction] = []
        var waiter: CheckedContinuation<Void, Never>?
        var dropped = 0
        var closed = false
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Queues an action (from any thread, without waiting).
    func push(_ action: DoAction) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            if state.items.count >= limit {
                state.items.removeFirst()
                state.dropped += 1
            }
            state.items.append(action)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The oldest action, waiting for one; nil once closed.
    func next() async -> DoAction? {
        while true {
            let taken = state.withLock { state -> DoAction?? in
                if state.closed { return .some(nil) }
                return state.items.isEmpty ? nil : .some(state.items.removeFirst())
            }
            if let taken { return taken }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    guard state.items.isEmpty, !state.closed else { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Dropped for room since the last call.
    func takeDropped() -> Int {
        state.withLock { state in
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    var count: Int { state.withLock { $0.items.count } }

    /// Ends `next` (the sender stops); returns what still waited.
    @discardableResult
    func close() -> [DoAction] {
        let (waiter, left) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [DoAction]) in
            state.closed = true
            defer {
                state.items.removeAll()
                state.waiter = nil
            }
            return (state.waiter, state.items)
        }
        waiter?.resume()
        return left
    }
}
