// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarSupport
import Synchronization

/// The session's poll: the open one, or the last one closed (it stays until a new one starts, for
/// `GET /api/poll` and the bar). Votes come from the session's rows, the start and the close from
/// the streamer (the control API); a timed poll closes itself at its moment. What happens is told
/// to its listeners (the event API, the actions), outside the lock, and noted for the memory
/// (`keep(_:restoring:)`) under it, so a restarted renderer comes back with the poll as it was.
public final class PollBoard: Sendable {
    public enum Change: Sendable {
        case started(Poll)
        /// A vote counted (`previous` nil) or moved: the option (0-based), the viewer, the count
        /// after it (not the poll: a change kept alive would make the next vote copy every ballot).
        case voted(option: Int, previous: Int?, voter: ViewerKey, tally: PollTally)
        case closed(Poll)
        /// The streamer took the closed result off the bar (`GET /api/poll` still gives it).
        case dismissed(Poll)
    }

    private let state = Mutex(State())
    private let listeners = Mutex<[@Sendable (Change) -> Void]>([])
    private let clock: @Sendable () -> Double
    private let watch = BoardWatch()
    private let journal = BoardJournal()

    private struct State {
        var poll: Poll?
        var closer: Task<Void, Never>?
        /// The streamer took the closed result off the bar (it stays for `GET /api/poll`).
        var dismissed = false
        /// Nothing happened on the board yet: what the memory kept may be restored.
        var untouched = true
    }

    /// `clock`: unix seconds now (tests move it).
    public init(clock: @escaping @Sendable () -> Double = WallClock.now) {
        self.clock = clock
    }

    /// Who hears the changes, each in the order they were added (the event API, the actions).
    public func listen(_ listener: @escaping @Sendable (Change) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Who hears every change the bar shows (a vote, a start, a close, a dismissal).
    public func watch(_ watcher: @escaping @Sendable () -> Void) {
        watch.set(watcher)
    }

    /// From now on every change goes to `keeping` (nil: nowhere, the memory is off). A board
    /// nothing happened on yet takes the poll the memory kept (`saved`: its source's last one),
    /// closed now if its moment passed meanwhile; a board with a poll writes it whole instead
    /// (a new file, or the memory turned on again), and a kept poll still open that it replaces
    /// is closed in the file.
    public func keep(_ keeping: BoardKeeping?, restoring saved: SavedPoll? = nil) {
        let now = clock()
        let changed = state.withLock { state -> Bool in
            journal.set(keeping?.keeper)
            guard let keeping else { return false }
            if state.untouched, state.poll == nil, let saved, let poll = Poll(restoring: saved) {
                state.untouched = false
                state.poll = poll
                state.dismissed = saved.dismissed
                state.poll?.closeIfDue(at: now)
                if let closed = state.poll, closed.closedAt != saved.closedAt {
                    keeping.keep(.poll(closed.saved(source: keeping.source, dismissed: state.dismissed, ballots: false)))
                }
                state.closer = closer(for: state.poll)
                return true
            }
            state.untouched = false
            if var saved, saved.closedAt == nil, saved.token != state.poll?.token {
                saved.closedAt = min(now, saved.closesAt ?? now)
                saved.ballots = []
                keeping.keep(.poll(saved))
            }
            if let poll = state.poll {
                keeping.keep(.poll(poll.saved(source: keeping.source, dismissed: state.dismissed, ballots: true)))
            }
            return false
        }
        if changed { watch.changed() }
    }

    /// The poll the bar shows: the open one, or the last closed one until it is dismissed.
    public var shown: Poll? {
        let poll = current
        return state.withLock { $0.dismissed } ? nil : poll
    }

    /// Takes the closed result off the bar (an open poll stays: close it first). Whether one went.
    @discardableResult
    public func dismiss() -> Bool {
        let now = clock()
        let dismissed = state.withLock { state -> Poll? in
            guard let poll = state.poll, !poll.isOpen(at: now), !state.dismissed else { return nil }
            state.dismissed = true
            journal.note { .poll(poll.saved(source: $0, dismissed: true, ballots: false)) }
            return poll
        }
        if let dismissed { tell(.dismissed(dismissed)) }
        return dismissed != nil
    }

    /// The open poll, or the last closed one (closed now if its moment passed).
    public var current: Poll? { currentAndDismissed.poll }

    /// `current`, and whether its result was taken off the bar, read together (a poll started
    /// in between would otherwise pair the new poll with the old one's dismissal, or the reverse).
    public var currentAndDismissed: (poll: Poll?, dismissed: Bool) {
        let now = clock()
        let (poll, dismissed, closedNow) = state.withLock { state -> (Poll?, Bool, Bool) in
            let wasOpen = state.poll?.closedAt == nil
            state.poll?.closeIfDue(at: now)
            let closedNow = wasOpen && state.poll?.closedAt != nil
            if closedNow, let poll = state.poll { noteClosed(poll, dismissed: state.dismissed) }
            return (state.poll, state.dismissed, closedNow)
        }
        if closedNow, let poll { tell(.closed(poll)) }
        return (poll, dismissed)
    }

    /// Starts a poll; an open one closes first (and is told as closed).
    @discardableResult
    public func start(_ question: PollQuestion, revote: Poll.Revote = .firstStands, bareNumbers: Bool = false,
                      seconds: Double? = nil) -> Poll {
        let now = clock()
        let poll = Poll(question, revote: revote, bareNumbers: bareNumbers, seconds: seconds, now: now)
        let previous = state.withLock { state -> Poll? in
            state.closer?.cancel()
            var previous = state.poll
            previous?.close(at: now)
            let wasOpen = state.poll?.closedAt == nil
            if wasOpen, let previous { noteClosed(previous, dismissed: state.dismissed) }
            state.poll = poll
            state.dismissed = false
            state.untouched = false
            journal.note { .poll(poll.saved(source: $0, dismissed: false, ballots: false)) }
            state.closer = closer(for: poll)
            return wasOpen ? previous : nil
        }
        if let previous { tell(.closed(previous)) }
        tell(.started(poll))
        return poll
    }

    /// The task that closes a timed poll at its moment (nil: none open, or not timed).
    private func closer(for poll: Poll?) -> Task<Void, Never>? {
        guard let poll, poll.closedAt == nil, let closesAt = poll.closesAt else { return nil }
        return Task { [self] in
            try? await Task.sleep(for: .milliseconds(Int(max(0, closesAt - clock()) * 1000) + 1))
            guard !Task.isCancelled else { return }
            _ = current
        }
    }

    /// Closes the open poll; the poll as closed, or nil when none was open.
    @discardableResult
    public func close() -> Poll? {
        let now = clock()
        let (closed, closedNow) = state.withLock { state -> (Poll?, Bool) in
            guard state.poll != nil else { return (nil, false) }
            let wasOpen = state.poll?.closedAt == nil
            state.poll?.close(at: now)
            state.closer?.cancel()
            state.closer = nil
            if wasOpen, let poll = state.poll { noteClosed(poll, dismissed: state.dismissed) }
            return (wasOpen ? state.poll : nil, wasOpen)
        }
        if closedNow, let closed { tell(.closed(closed)) }
        return closed
    }

    /// A cheap look before `counts`: a poll not closed yet (its time may have run out).
    public var mayCount: Bool { state.withLock { $0.poll != nil && $0.poll?.closedAt == nil } }

    /// Whether the open poll counts the comment (a vote).
    public func counts(_ comment: FoldedComment) -> Bool {
        let now = clock()
        return state.withLock { $0.poll?.counts(comment, at: now) ?? false }
    }

    /// A row the bar showed, from `channel`: a vote if it is one.
    public func take(_ line: ChatLine, channel: ChannelRef) {
        let now = clock()
        let (change, closedNow) = state.withLock { state -> (Change?, Poll?) in
            // Taken in place: a copy of the poll for every comment would copy its ballots each time.
            guard state.poll?.closedAt == nil, let outcome = state.poll?.take(line, channel: channel, at: now),
                  let poll = state.poll else { return (nil, nil) }
            let voter = ViewerKey(channel: channel, line: line)
            switch outcome {
            case .counted(let option):
                noteBallot(voter, option: option, poll: poll, at: now)
                return (.voted(option: option, previous: nil, voter: voter, tally: poll.tally), nil)
            case .changed(let previous, let option):
                noteBallot(voter, option: option, poll: poll, at: now)
                return (.voted(option: option, previous: previous, voter: voter, tally: poll.tally), nil)
            case .closed:
                noteClosed(poll, dismissed: state.dismissed)
                return (nil, poll)
            case .alreadyVoted, .notAVote, .full:
                return (nil, nil)
            }
        }
        if let closedNow { tell(.closed(closedNow)) }
        if let change { tell(change) }
    }

    /// The session ends: the timer goes.
    public func stop() {
        state.withLock { $0.closer?.cancel() }
    }

    /// Called with the lock held: the memory's records keep the changes' order.
    private func noteClosed(_ poll: Poll, dismissed: Bool) {
        journal.note { .poll(poll.saved(source: $0, dismissed: dismissed, ballots: false)) }
    }

    private func noteBallot(_ voter: ViewerKey, option: Int, poll: Poll, at now: Double) {
        journal.note { _ in .ballot(poll: poll.token, SavedBallot(voter: voter, option: option, at: now)) }
    }

    private func tell(_ change: Change) {
        for listener in listeners.withLock({ $0 }) { listener(change) }
        watch.changed()
    }
}
