// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import Synchronization

/// The session's 参加型 queue: closed until the streamer opens it (with its rules), then viewers
/// join and leave from every stream's chat and the streamer calls the next ones. What happens is
/// told to `listener` (the event API), outside the lock.
public final class QueueBoard: Sendable {
    public enum Change: Sendable {
        case joined(JoinQueue.Entry, place: Int)
        case left(ViewerKey)
        /// The viewers called to play now (the ones before are done).
        case called([JoinQueue.Entry])
    }

    private let state = Mutex<JoinQueue?>(nil)
    private let listener = Mutex<(@Sendable (Change) -> Void)?>(nil)
    private let watch = BoardWatch()

    public init() {}

    /// Who hears every change the bar shows (events, and opening, closing, players done).
    public func watch(_ watcher: @escaping @Sendable () -> Void) {
        watch.set(watcher)
    }

    public func listen(_ listener: @escaping @Sendable (Change) -> Void) {
        self.listener.withLock { $0 = listener }
    }

    /// The queue now (nil: closed).
    public var current: JoinQueue? { state.withLock { $0 } }

    /// Opens the queue with `rules` (an open one keeps its viewers and takes the new rules' words
    /// and capacity from now on).
    @discardableResult
    public func open(rules: JoinRules, words: JoinWords = JoinWords()) -> JoinQueue {
        defer { watch.changed() }
        return state.withLock { queue in
            var opened = queue ?? JoinQueue(rules: rules, words: words)
            opened.reconfigure(rules: rules, words: words)
            queue = opened
            return opened
        }
    }

    /// Closes the queue: nobody joins, the list goes. Whether one was open.
    @discardableResult
    public func close() -> Bool {
        let wasOpen = state.withLock { queue in
            defer { queue = nil }
            return queue != nil
        }
        if wasOpen { watch.changed() }
        return wasOpen
    }

    /// A comment from `channel` by a viewer of `standing`.
    public func take(_ line: ChatLine, channel: ChannelRef, standing: Standing) {
        let change = state.withLock { queue -> Change? in
            guard var open = queue else { return nil }
            let outcome = open.take(line, channel: channel, standing: standing)
            queue = open
            switch outcome {
            case .joined(let place): return .joined(open.waiting[place - 1], place: place)
            case .left: return .left(ViewerKey(channel: channel, line: line))
            default: return nil
            }
        }
        if let change { tell(change) }
    }

    /// Calls the next `count`; those called (empty: none waits, or the queue is closed).
    public func next(_ count: Int) -> [JoinQueue.Entry] {
        let called = state.withLock { queue -> [JoinQueue.Entry] in queue?.next(count) ?? [] }
        if !called.isEmpty { tell(.called(called)) }
        return called
    }

    public func done() {
        state.withLock { $0?.markDone() }
        watch.changed()
    }

    @discardableResult
    public func remove(_ viewer: ViewerKey) -> Bool {
        let removed = state.withLock { $0?.remove(viewer) ?? false }
        if removed { tell(.left(viewer)) }
        return removed
    }

    private func tell(_ change: Change) {
        listener.withLock { $0 }?(change)
        watch.changed()
    }
}
