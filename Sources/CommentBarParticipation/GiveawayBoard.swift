// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory
import CommentBarSupport
import Synchronization

/// The session's giveaway (抽選): the open one or the last one drawn (its winner pinned on the bar
/// until the streamer dismisses it or draws again), its entries from every stream's chat, and what the session knows of each viewer this stream (`ViewerCounts`: comments,
/// bans) for its rules. What happens is told to its listeners (the event API, the actions), outside the lock,
/// and noted for the memory (`keep(_:restoring:)`) under it: every entry and every draw is kept.
public final class GiveawayBoard: Sendable {
    public enum Change: Sendable {
        /// The streamer started one (entries open).
        case started(Giveaway)
        case entered(Giveaway.Entrant, count: Int)
        case won(Giveaway.Entrant, draw: Int)
        /// The streamer took the last winner off the bar.
        case dismissed(Giveaway)
    }

    private let state = Mutex(State())
    private let listeners = Mutex<[@Sendable (Change) -> Void]>([])
    private let keptOut = Mutex<(@Sendable (Giveaway.Entrant) -> Bool)?>(nil)
    private let clock: @Sendable () -> Double
    private let watch = BoardWatch()
    private let journal = BoardJournal()

    private struct State {
        var giveaway: Giveaway?
        /// Its last winner is off the bar (until the next draw).
        var dismissed = false
        var counts = ViewerCounts()
        /// Viewers the streamer hid since they entered: never drawn.
        var hidden: Set<ViewerKey> = []
        /// Nothing happened on the board yet: what the memory kept may be restored.
        var untouched = true
    }

    public init(clock: @escaping @Sendable () -> Double = WallClock.now) {
        self.clock = clock
    }

    /// Who hears the changes, each in the order they were added (the event API, the actions).
    public func listen(_ listener: @escaping @Sendable (Change) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// Whom the settings keep out by name now (`hidden_users`, added after they entered): a draw
    /// passes them over. Asked of each one drawn, not of every entrant: a name is folded to be
    /// compared, and a giveaway may hold 100,000 entries.
    public func keepOut(_ check: @escaping @Sendable (Giveaway.Entrant) -> Bool) {
        keptOut.withLock { $0 = check }
    }

    /// Who hears every change the bar shows (a new giveaway, a winner, its dismissal).
    public func watch(_ watcher: @escaping @Sendable () -> Void) {
        watch.set(watcher)
    }

    public var current: Giveaway? { state.withLock { $0.giveaway } }

    /// The giveaway and whether its last winner was taken off the bar, read together.
    public var currentAndDismissed: (giveaway: Giveaway?, dismissed: Bool) {
        state.withLock { ($0.giveaway, $0.dismissed) }
    }

    /// The winner the bar shows: the last one drawn, until dismissed.
    public var shownWinner: Giveaway.Entrant? {
        state.withLock { $0.dismissed ? nil : $0.giveaway?.winners.last }
    }

    /// From now on every change goes to `keeping` (nil: nowhere, the memory is off). A board
    /// nothing happened on yet takes the giveaway the memory kept (`saved`: its source's last
    /// one, its entrants and winners); one with a giveaway writes it whole instead. The comments
    /// the memory counted on the streams going on (`commentsThisStream`) count for the rules.
    public func keep(_ keeping: BoardKeeping?, restoring saved: SavedGiveaway? = nil,
                     commentsThisStream: [ViewerKey: Int] = [:]) {
        let restored = state.withLock { state -> Bool in
            journal.set(keeping?.keeper)
            guard let keeping else { return false }
            defer { state.untouched = false }
            state.counts.restore(commentsThisStream)
            if state.untouched, state.giveaway == nil, let saved, let giveaway = Giveaway(restoring: saved) {
                state.giveaway = giveaway
                state.dismissed = saved.dismissed
                return true
            }
            if let giveaway = state.giveaway {
                keeping.keep(.giveaway(giveaway.saved(source: keeping.source, whole: true, dismissed: state.dismissed)))
            }
            return false
        }
        if restored { watch.changed() }
    }

    /// Starts a giveaway (one running before is replaced, its draws kept in its events).
    @discardableResult
    public func start(word: String, rules: GiveawayRules, seconds: Double?) throws(PollProblem) -> Giveaway {
        let now = clock()
        let giveaway = try Giveaway(word: word, rules: rules, seconds: seconds, now: now)
        state.withLock { state in
            if var previous = state.giveaway, previous.closedAt == nil {
                // Replaced: its entries are over (kept with it).
                previous.close(at: now)
                journal.note { .giveaway(previous.saved(source: $0, whole: false, dismissed: state.dismissed)) }
            }
            state.giveaway = giveaway
            state.dismissed = false
            state.untouched = false
            journal.note { .giveaway(giveaway.saved(source: $0, whole: false, dismissed: false)) }
        }
        tell(.started(giveaway))
        return giveaway
    }

    /// Draws a winner (entries close); nil when no giveaway ran or nobody is left to draw.
    public func draw() -> Giveaway.Entrant? {
        let now = clock()
        let keptOut = keptOut.withLock { $0 }
        let drawn = state.withLock { state -> (Giveaway.Entrant, Int)? in
            let wasOpen = state.giveaway?.closedAt == nil
            var passedOver: Set<ViewerKey> = []
            var winner: Giveaway.Entrant?
            while true {
                winner = state.giveaway?.draw(at: now) { [counts = state.counts, hidden = state.hidden] viewer in
                    hidden.contains(viewer) || counts.isBanned(viewer) || passedOver.contains(viewer)
                }
                guard let drawn = winner, keptOut?(drawn) == true else { break }
                // Hidden by name since they entered: not a winner, and the draw goes on.
                state.giveaway?.winners.removeLast()
                passedOver.insert(drawn.viewer)
            }
            guard let giveaway = state.giveaway else { return nil }
            // A draw closes the entries, and its winner is pinned on the bar again.
            let wasDismissed = state.dismissed
            if winner != nil { state.dismissed = false }
            if wasOpen || (wasDismissed && winner != nil) {
                journal.note { .giveaway(giveaway.saved(source: $0, whole: false, dismissed: state.dismissed)) }
            }
            guard let winner else { return nil }
            let number = giveaway.winners.count
            journal.note { _ in .draw(giveaway: giveaway.token, number: number, winner.saved(at: now)) }
            return (winner, number)
        }
        guard let (winner, number) = drawn else { return nil }
        tell(.won(winner, draw: number))
        return winner
    }

    /// Takes the last winner off the bar (kept in the memory with its draws); false when none is
    /// on it. The next draw pins a winner again.
    public func dismiss() -> Bool {
        let dismissed = state.withLock { state -> Giveaway? in
            guard let giveaway = state.giveaway, !giveaway.winners.isEmpty, !state.dismissed else { return nil }
            state.dismissed = true
            state.untouched = false
            journal.note { .giveaway(giveaway.saved(source: $0, whole: false, dismissed: true)) }
            return giveaway
        }
        guard let dismissed else { return false }
        tell(.dismissed(dismissed))
        return true
    }

    /// A cheap look before `counts`: entries not closed yet (their time may have run out).
    public var mayCount: Bool { state.withLock { $0.giveaway != nil && $0.giveaway?.closedAt == nil } }

    /// Whether the open giveaway counts the comment (its entry word).
    public func counts(_ comment: FoldedComment) -> Bool {
        let now = clock()
        return state.withLock { $0.giveaway?.counts(comment, at: now) ?? false }
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
            let wasOpen = state.giveaway?.closedAt == nil
            let outcome = state.giveaway?.take(line, channel: channel, eligibility: eligibility, at: now)
            if wasOpen, let giveaway = state.giveaway, giveaway.closedAt != nil {
                // Its time ran out: closed at that moment.
                journal.note { .giveaway(giveaway.saved(source: $0, whole: false, dismissed: state.dismissed)) }
            }
            guard case .entered(let count) = outcome, let giveaway = state.giveaway, let entrant = giveaway.entrants.last
            else { return nil }
            journal.note { _ in .entrant(giveaway: giveaway.token, number: count, entrant.saved(at: now)) }
            return .entered(entrant, count: count)
        }
        if let change { tell(change) }
    }

    /// A moderator banned or timed out `user` on `channel`: out of this stream's giveaways, an
    /// entry made before too.
    public func banned(_ user: String, channel: ChannelRef) {
        state.withLock { $0.counts.ban(ViewerKey(channel: channel, user: user)) }
    }

    /// The streamer hid `viewer` (the memory's choice): never drawn, an entry made before too.
    /// `false`: shown again, drawn again.
    public func hidden(_ viewer: ViewerKey, _ hidden: Bool = true) {
        state.withLock { state in
            if !hidden {
                state.hidden.remove(viewer)
            } else if state.hidden.count < ViewerCounts.maxViewers {
                state.hidden.insert(viewer)
            }
        }
    }

    private func tell(_ change: Change) {
        for listener in listeners.withLock({ $0 }) { listener(change) }
        watch.changed()
    }
}
