// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarSupport
import Synchronization

/// The session's giveaway (抽選): the open one or the last one drawn, its entries from every
/// stream's chat, and what the session knows of each viewer this stream (`ViewerCounts`: comments,
/// bans) for its rules. What happens is told to its listeners (the event API, the actions), outside the lock.
public final class GiveawayBoard: Sendable {
    public enum Change: Sendable {
        case entered(Giveaway.Entrant, count: Int)
        case won(Giveaway.Entrant, draw: Int)
    }

    private let state = Mutex(State())
    private let listeners = Mutex<[@Sendable (Change) -> Void]>([])
    private let clock: @Sendable () -> Double
    private let watch = BoardWatch()

    private struct State {
        var giveaway: Giveaway?
        var counts = ViewerCounts()
    }

    public init(clock: @escaping @Sendable () -> Double = WallClock.now) {
        self.clock = clock
    }

    /// Who hears the changes, each in the order they were added (the event API, the actions).
    public func listen(_ listener: @escaping @Sendable (Change) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Who hears every change the bar shows (a new giveaway, a winner).
    public func watch(_ watcher: @escaping @Sendable () -> Void) {
        watch.set(watcher)
    }

    public var current: Giveaway? { state.withLock { $0.giveaway } }

    /// Starts a giveaway (one running before is replaced, its draws kept in its events).
    @discardableResult
    public func start(word: String, rules: GiveawayRules, seconds: Double?) throws(PollProblem) -> Giveaway {
        let giveaway = try Giveaway(word: word, rules: rules, seconds: seconds, now: clock())
        state.withLock { $0.giveaway = giveaway }
        watch.changed()
        return giveaway
    }

    /// Draws a winner (entries close); nil when no giveaway ran or nobody is left to draw.
    public func draw() -> Giveaway.Entrant? {
        let now = clock()
        let drawn = state.withLock { state -> (Giveaway.Entrant, Int)? in
            guard let winner = state.giveaway?.draw(at: now) else { return nil }
            return (winner, state.giveaway?.winners.count ?? 1)
        }
        guard let (winner, number) = drawn else { return nil }
        tell(.won(winner, draw: number))
        return winner
    }

    /// A comment from `channel`: counted for the rules, and an entry if it is the word.
    public func take(_ line: ChatLine, channel: ChannelRef, firstTime: Bool) {
        guard !line.isHistory else { return }
        let now = clock()
        let viewer = ViewerKey(channel: channel, line: line)
        let change = state.withLock { state -> Change? in
            state.counts.comment(by: viewer)
            let eligibility = Eligibility(commentsThisStream: state.counts.comments(of: viewer), firstTime: firstTime,
                                          banned: state.counts.isBanned(viewer))
            // Taken in place: a copy for every comment would copy its entrants each time.
            guard case .entered(let count) = state.giveaway?.take(line, channel: channel, eligibility: eligibility, at: now),
                  let entrant = state.giveaway?.entrants.last else { return nil }
            return .entered(entrant, count: count)
        }
        if let change { tell(change) }
    }

    /// A moderator banned or timed out `user` on `channel`: out of this stream's giveaways.
    public func banned(_ user: String, channel: ChannelRef) {
        state.withLock { $0.counts.ban(ViewerKey(channel: channel, user: user)) }
    }

    private func tell(_ change: Change) {
        for listener in listeners.withLock({ $0 }) { listener(change) }
        watch.changed()
    }
}
