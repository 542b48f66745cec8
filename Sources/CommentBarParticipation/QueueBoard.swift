// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarSupport
import Synchronization

/// The session's 参加型 queue: closed until the streamer opens it (with its rules), then viewers
/// join and leave from every stream's chat and the streamer calls the next ones. What happens is
/// told to its listeners (the event API, the actions), outside the lock; the whole queue after
/// each change goes to its follower and to the memory (`keep(_:restoring:)`), under it.
public final class QueueBoard: Sendable {
    public enum Change: Sendable {
        case joined(JoinQueue.Entry, place: Int)
        case left(ViewerKey)
        /// The viewers called to play now (the ones before are done).
        case called([JoinQueue.Entry])
        /// The streamer opened it (or changed its rules), closed it (nil), marked the players
        /// done, or moved someone: the whole queue after it, since no viewer's event says so.
        case changed(JoinQueue?)
    }

    private let state = Mutex<JoinQueue?>(nil)
    private let listeners = Mutex<[@Sendable (Change) -> Void]>([])
    private let follower = Mutex<Callback<JoinQueue?>?>(nil)
    private let watch = BoardWatch()
    private let journal = BoardJournal()
    /// Nothing happened on the board yet: the queue the memory kept may be restored.
    private let untouched = Atomic<Bool>(true)
    /// Each account's times played in the queues closed before (this renderer's life): a queue
    /// opened again counts on from them, as OneComme's order items count a viewer's plays.
    /// Taken only under `state`'s lock.
    private let playedBefore = Mutex<[ViewerKey: Int]>([:])
    private let keptOut = Mutex<(@Sendable (JoinQueue.Entry) -> Bool)?>(nil)

    public init() {}

    /// Whom the settings keep out by name now (`hidden_users`): asked of everyone in a queue the
    /// memory restores, and by `removeKeptOut` when the names change.
    public func keepOut(_ check: @escaping @Sendable (JoinQueue.Entry) -> Bool) {
        keptOut.withLock { $0 = check }
    }

    /// Takes out of the queue everyone `keepOut` says (a name hidden since they joined), playing
    /// or waiting, each told as a leave.
    public func removeKeptOut() {
        guard let check = keptOut.withLock({ $0 }), let queue = current else { return }
        for entry in queue.playing + queue.waiting where check(entry) { remove(entry.viewer) }
    }

    /// From now on the queue goes to `keeping` after each change (nil: nowhere, the memory is
    /// off). A board nothing happened on yet takes the queue the memory kept (`saved`), as it
    /// was: who waits in order, who plays, the times played; an open queue is written whole
    /// instead (a new file, or the memory turned on again).
    public func keep(_ keeping: BoardKeeping?, restoring saved: SavedQueue? = nil) {
        let restored = state.withLock { queue -> Bool in
            journal.set(keeping?.keeper)
            guard let keeping else { return false }
            let restoring = untouched.exchange(false, ordering: .relaxed)
            if restoring, queue == nil, let saved {
                queue = JoinQueue(restoring: saved)
                // The follower (OneComme's waiting list) hears the queue; the file has it already.
                follower.withLock { $0 }?.call(queue)
                return true
            }
            if let queue { keeping.keep(.queue(source: keeping.source, queue.saved)) }
            return false
        }
        guard restored else { return }
        // Names hidden while the renderer was down.
        removeKeptOut()
        watch.changed()
    }

    /// Who hears every change the bar shows (events, and opening, closing, players done, a move).
    public func watch(_ watcher: @escaping @Sendable () -> Void) {
        watch.set(watcher)
    }

    /// Who hears the changes, each in the order they were added (the event API, the actions).
    public func listen(_ listener: @escaping @Sendable (Change) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// `follower` gets the whole queue after every change (nil: closed), in the order of the
    /// changes: it is called under the board's lock, so it only hands the queue on (the OneComme
    /// server's waiting list) and never calls the board.
    public func follow(_ follower: @escaping @Sendable (JoinQueue?) -> Void) {
        self.follower.withLock { $0 = Callback(follower) }
    }

    /// The queue now (nil: closed).
    public var current: JoinQueue? { state.withLock { $0 } }

    /// Opens the queue with `rules` (an open one keeps its viewers and takes the new rules' words
    /// and capacity from now on).
    @discardableResult
    public func open(rules: JoinRules, words: JoinWords = JoinWords()) -> JoinQueue {
        untouched.store(false, ordering: .relaxed)
        let opened = state.withLock { queue in
            var opened = queue ?? JoinQueue(rules: rules, words: words, timesPlayed: playedBefore.withLock { $0 })
            opened.reconfigure(rules: rules, words: words)
            queue = opened
            show(queue)
            return opened
        }
        tell(.changed(opened))
        return opened
    }

    /// Closes the queue: nobody joins, the list goes. Whether one was open.
    @discardableResult
    public func close() -> Bool {
        untouched.store(false, ordering: .relaxed)
        let wasOpen = state.withLock { queue in
            defer {
                queue = nil
                show(nil)
            }
            if let played = queue?.timesPlayed { playedBefore.withLock { $0.merge(played) { max($0, $1) } } }
            return queue != nil
        }
        if wasOpen { tell(.changed(nil)) }
        return wasOpen
    }

    /// A cheap look before `counts`: the queue is open.
    public var mayCount: Bool { state.withLock { $0 != nil } }

    /// Whether the open queue counts the comment (a join or leave word).
    public func counts(_ comment: FoldedComment) -> Bool {
        state.withLock { $0?.counts(comment) ?? false }
    }

    /// A comment from `channel` by a viewer of `standing`.
    public func take(_ line: ChatLine, channel: ChannelRef, standing: Standing) {
        let change = state.withLock { queue -> Change? in
            // Taken in place: a copy of the queue for every comment would copy its lists each time.
            guard let outcome = queue?.take(line, channel: channel, standing: standing) else { return nil }
            if case .joined = outcome { show(queue) } else if case .left = outcome { show(queue) }
            switch outcome {
            case .joined(let place):
                guard let entry = queue?.waiting[place - 1] else { return nil }
                return .joined(entry, place: place)
            case .left: return .left(ViewerKey(channel: channel, line: line))
            default: return nil
            }
        }
        if let change { tell(change) }
    }

    /// Calls the next `count`; those called (empty: none waits, or the queue is closed).
    public func next(_ count: Int) -> [JoinQueue.Entry] {
        let called = state.withLock { queue -> [JoinQueue.Entry] in
            let called = queue?.next(count) ?? []
            if !called.isEmpty { show(queue) }
            return called
        }
        if !called.isEmpty { tell(.called(called)) }
        return called
    }

    public func done() {
        let changed = state.withLock { queue -> JoinQueue? in
            // Someone plays, so the queue is open.
            guard queue?.playing.isEmpty == false else { return nil }
            queue?.markDone()
            show(queue)
            return queue
        }
        if let changed { tell(.changed(changed)) }
    }

    @discardableResult
    public func remove(_ viewer: ViewerKey) -> Bool {
        let removed = state.withLock { queue -> Bool in
            let removed = queue?.remove(viewer) ?? false
            if removed { show(queue) }
            return removed
        }
        if removed { tell(.left(viewer)) }
        return removed
    }

    /// Moves a waiting viewer to `place` (1-based); the queue after it (nil: not waiting, or closed).
    public func move(_ viewer: ViewerKey, to place: Int) -> JoinQueue? {
        let moved = state.withLock { queue -> JoinQueue? in
            guard queue?.move(viewer, to: place) == true else { return nil }
            show(queue)
            return queue
        }
        if let moved { tell(.changed(moved)) }
        return moved
    }

    /// Called with the board's lock held (`follow`), so the memory's records keep the changes' order.
    private func show(_ queue: JoinQueue?) {
        follower.withLock { $0 }?.call(queue)
        journal.note { .queue(source: $0, queue?.saved) }
    }

    private func tell(_ change: Change) {
        for listener in listeners.withLock({ $0 }) { listener(change) }
        watch.changed()
    }
}
