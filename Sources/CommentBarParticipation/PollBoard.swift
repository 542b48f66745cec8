// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarSupport
import Synchronization

/// The session's poll: the open one, or the last one closed (it stays until a new one starts, for
/// `GET /api/poll` and the bar). Votes come from the session's rows, the start and the close from
/// the streamer (the control API); a timed poll closes itself at its moment. What happens is told
/// to its listeners (the event API, the actions), outside the lock.
public final class PollBoard: Sendable {
    public enum Change: Sendable {
        case started(Poll)
        /// A vote counted (`previous` nil) or moved: the option (0-based), the viewer, the poll after it.
        case voted(option: Int, previous: Int?, voter: ViewerKey, poll: Poll)
        case closed(Poll)
    }

    private let state = Mutex(State())
    private let listeners = Mutex<[@Sendable (Change) -> Void]>([])
    private let clock: @Sendable () -> Double
    private let watch = BoardWatch()

    private struct State {
        var poll: Poll?
        var closer: Task<Void, Never>?
        /// The streamer took the closed result off the bar (it stays for `GET /api/poll`).
        var dismissed = false
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

    /// The poll the bar shows: the open one, or the last closed one until it is dismissed.
    public var shown: Poll? {
        let poll = current
        return state.withLock { $0.dismissed } ? nil : poll
    }

    /// Takes the closed result off the bar (an open poll stays: close it first). Whether one went.
    @discardableResult
    public func dismiss() -> Bool {
        let now = clock()
        let went = state.withLock { state -> Bool in
            guard let poll = state.poll, !poll.isOpen(at: now), !state.dismissed else { return false }
            state.dismissed = true
            return true
        }
        if went { watch.changed() }
        return went
    }

    /// The open poll, or the last closed one (closed now if its moment passed).
    public var current: Poll? {
        let now = clock()
        let (poll, closedNow) = state.withLock { state -> (Poll?, Bool) in
            let wasOpen = state.poll?.closedAt == nil
            state.poll?.closeIfDue(at: now)
            return (state.poll, wasOpen && state.poll?.closedAt != nil)
        }
        if closedNow, let poll { tell(.closed(poll)) }
        return poll
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
            state.poll = poll
            state.dismissed = false
            state.closer = poll.closesAt.map { closesAt in
                Task { [self] in
                    try? await Task.sleep(for: .milliseconds(Int(max(0, closesAt - clock()) * 1000) + 1))
                    guard !Task.isCancelled else { return }
                    _ = current
                }
            }
            return wasOpen ? previous : nil
        }
        if let previous { tell(.closed(previous)) }
        tell(.started(poll))
        return poll
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
            return (wasOpen ? state.poll : nil, wasOpen)
        }
        if closedNow, let closed { tell(.closed(closed)) }
        return closed
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
                return (.voted(option: option, previous: nil, voter: voter, poll: poll), nil)
            case .changed(let previous, let option):
                return (.voted(option: option, previous: previous, voter: voter, poll: poll), nil)
            case .closed:
                return (nil, poll)
            case .alreadyVoted, .notAVote:
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

    private func tell(_ change: Change) {
        for listener in listeners.withLock({ $0 }) { listener(change) }
        watch.changed()
    }
}
