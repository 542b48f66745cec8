// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The actions waiting to be sent, for the one task that sends them: bounded (`limit`; past it one
/// is dropped and counted by its rule, so a target that is down for long holds little and a late
/// burst is not sent long after), and awaited without polling. The one dropped is the oldest of
/// the rules that yield (`comment`), so a busy chat never pushes a gift out; else the oldest. The
/// action being sent stays first until it is `finished`, so a new target (`close`) gets it too.
final class ActionQueue: Sendable {
    let limit: Int
    private let state = Mutex(State())

    /// An action as the sender takes it: `number` says which one is finished.
    struct Taken: Sendable {
        var number: Int
        var action: MatchedAction
    }

    private struct State {
        var items: [Taken] = []
        var numbered = 0
        /// The action the sender holds (never dropped for room).
        var sending: Int?
        var waiter: CheckedContinuation<Void, Never>?
        /// Dropped for room since the last `takeDropped`, by rule label.
        var dropped: [String: Int] = [:]
        var closed = false

        mutating func makeRoom(for action: MatchedAction) -> Bool {
            let droppable = items.indices.filter { items[$0].number != sending }
            if let yielding = droppable.first(where: { items[$0].action.rule.yields }) {
                dropped[items.remove(at: yielding).action.rule.label, default: 0] += 1
            } else if action.rule.yields || droppable.isEmpty {
                // Full of actions that matter: the comment is the one that gives way.
                dropped[action.rule.label, default: 0] += 1
                return false
            } else if let oldest = droppable.first {
                dropped[items.remove(at: oldest).action.rule.label, default: 0] += 1
            }
            return true
        }
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Queues an action (from any thread, without waiting). True when it waits behind another
    /// (the one being sent, or about to be): that one's answer need not wait (`othersWaiting`).
    @discardableResult
    func push(_ action: MatchedAction) -> Bool {
        let (waiter, behind) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
            guard !state.closed else { return (nil, false) }
            if state.items.count >= limit, !state.makeRoom(for: action) { return (nil, false) }
            state.numbered += 1
            state.items.append(Taken(number: state.numbered, action: action))
            defer { state.waiter = nil }
            return (state.waiter, state.items.count > 1)
        }
        waiter?.resume()
        return behind
    }

    /// The oldest action, waiting for one; it stays queued until `finished`. Nil once closed.
    func next() async -> Taken? {
        while true {
            let taken = state.withLock { state -> Taken?? in
                if state.closed { return .some(nil) }
                guard let first = state.items.first else { return nil }
                state.sending = first.number
                return .some(first)
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

    /// The action taken was sent (or answered no): it leaves the queue.
    func finished(_ taken: Taken) {
        state.withLock { state in
            state.items.removeAll { $0.number == taken.number }
            if state.sending == taken.number { state.sending = nil }
        }
    }

    /// Dropped for room since the last call, by rule label.
    func takeDropped() -> [String: Int] {
        state.withLock { state in
            defer { state.dropped = [:] }
            return state.dropped
        }
    }

    var count: Int { state.withLock { $0.items.count } }

    /// Ends `next` (the sender stops); returns what still waited, the one being sent first.
    @discardableResult
    func close() -> [MatchedAction] {
        let (waiter, left) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [MatchedAction]) in
            state.closed = true
            defer {
                state.items.removeAll()
                state.waiter = nil
            }
            return (state.waiter, state.items.map(\.action))
        }
        waiter?.resume()
        return left
    }
}
