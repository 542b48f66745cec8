// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarServices
import CommentBarSupport
import Logging
import Synchronization

/// The audience takes part (issue 48): the session's poll (`PollBoard`), 参加型 queue
/// (`QueueBoard`) and giveaway (`GiveawayBoard`) hear every comment the bar hears, from its stream's channel as the memory keys
/// viewers (one vote, one place per account per channel), and their changes go to the event API
/// (`ParticipationWire`). The streamer runs them through the control API (`SessionControlBackend`).
/// What the bar shows of them (`AudienceView`) is made anew at most four times a second
/// (`StripPace`), whatever the storm of votes, and handed on only when it differs.
final class ParticipationPart: SessionPart, CountedComments {
    let polls: PollBoard
    let queue: QueueBoard
    let giveaways: GiveawayBoard
    /// Each stream's channel (renamed when its feed names its channel) and the badges its
    /// platform marks members with, in origin order.
    private let streams = Mutex<[Listened]>([])
    /// Rings when a board changed, or a timed poll's shown second is over (the newest ring only).
    private let boardChanged: AsyncStream<Void>.Continuation
    /// Who puts the view on the bar (the session's state; tests listen themselves).
    private let onBar: OnBar
    private let pacing: Task<Void, Never>
    /// The settings' filters: a bot, or a viewer the streamer hid by name (`hidden_users`), never
    /// votes, joins or enters (a viewer hidden in the memory never gets here).
    private let filters = Mutex(ChatFilters.none)
    /// The names `hidden_users` had at the last settings: one added keeps its viewer out of what
    /// they already joined too.
    private let hiddenNames = Mutex<[String]>([])
    /// A poll or a giveaway at its most (`Poll.maxVoters`, `Giveaway.maxEntrants`): one line on
    /// the bar's status and in the log.
    let problems: ProblemReporter

    /// `clock`: unix seconds now (the boards' own clock; tests move it).
    init(polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard, control: ControlHook, log: Logger,
         changed: @escaping @Sendable () -> Void = {}, clock: @escaping @Sendable () -> Double = WallClock.now) {
        let problems = ProblemReporter(log: log, level: .warning, changed: changed)
        self.problems = problems
        self.polls = polls
        self.queue = queue
        self.giveaways = giveaways
        polls.listen { change in control.participationChanged(ParticipationWire.event(change)) }
        queue.listen { change in control.participationChanged(ParticipationWire.event(change)) }
        giveaways.listen { change in control.participationChanged(ParticipationWire.event(change)) }
        let (changes, changed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        boardChanged = changed
        polls.watch { changed.yield() }
        queue.watch { changed.yield() }
        giveaways.watch { changed.yield() }
        let boards = Boards(polls: polls, queue: queue, giveaways: giveaways)
        let onBar = OnBar()
        self.onBar = onBar
        pacing = Task {
            await Self.pace(changes, boards: boards, clock: clock, ring: changed,
                            report: { problems.report($0) }, show: { view in onBar.show(view) })
        }
        queue.keepOut { [weak self] entry in self?.hidesByName(entry.viewer, name: entry.name) ?? false }
        giveaways.keepOut { [weak self] entrant in self?.hidesByName(entrant.viewer, name: entrant.name) ?? false }
    }

    /// Who puts the audience's view on the bar: called at most four times a second, with a view
    /// that differs from the one before.
    func showOnBar(_ show: @escaping @Sendable (AudienceView) -> Void) {
        onBar.set(show)
        boardChanged.yield()
    }

    /// Who puts the view on the bar, set after the session is made (it needs the session).
    private final class OnBar: Sendable {
        private let shower = Mutex<Callback<AudienceView>?>(nil)
        func set(_ show: @escaping @Sendable (AudienceView) -> Void) { shower.withLock { $0 = Callback(show) } }
        func show(_ view: AudienceView) { shower.withLock { $0 }?.call(view) }
    }

    private struct Boards: Sendable {
        let polls: PollBoard
        let queue: QueueBoard
        let giveaways: GiveawayBoard
    }

    /// For each ring (the newest only: a storm of votes is one ring waiting), once the pace
    /// allows: the boards' view, handed on when it changed. While a timed poll is open its
    /// seconds left change by themselves: the end of the second shown rings too.
    private static func pace(_ changes: AsyncStream<Void>, boards: Boards, clock: @escaping @Sendable () -> Double,
                             ring: AsyncStream<Void>.Continuation, report: (String?) -> Void,
                             show: (AudienceView) -> Void) async {
        var pace = StripPace()
        var shown = AudienceView()
        var countdown: Task<Void, Never>?
        defer { countdown?.cancel() }
        for await _ in changes {
            let wait = pace.due(at: clock()) - clock()
            if wait > 0 { try? await Task.sleep(for: .milliseconds(Int((wait * 1000).rounded(.up)))) }
            guard !Task.isCancelled else { return }
            let now = clock()
            pace.shown(at: now)
            let view = AudienceView(polls: boards.polls, queue: boards.queue, giveaways: boards.giveaways, now: now)
            if view != shown {
                shown = view
                show(view)
            }
            report(problem(boards, now: now))
            countdown?.cancel()
            countdown = nil
            if let poll = boards.polls.current, poll.isOpen(at: now), let closesAt = poll.closesAt {
                // The shown count is the seconds left rounded up: it drops when they cross a whole number.
                let left = closesAt - now
                let untilDrop = left - (left.rounded(.up) - 1)
                countdown = Task {
                    try? await Task.sleep(for: .milliseconds(Int((untilDrop * 1000).rounded(.up)) + 1))
                    if !Task.isCancelled { ring.yield() }
                }
            }
        }
    }

    /// What the bar's status says of the boards: an open poll or giveaway that takes nobody new.
    private static func problem(_ boards: Boards, now: Double) -> String? {
        if let poll = boards.polls.current, poll.isOpen(at: now), poll.isFull {
            return "poll: \(Poll.maxVoters) voters, the most one poll counts: new voters are not counted"
        }
        if let giveaway = boards.giveaways.current, giveaway.isOpen(at: now), giveaway.isFull {
            return "giveaway: \(Giveaway.maxEntrants) entries, the most one giveaway takes: new entries are refused"
        }
        return nil
    }

    var problem: String? { problems.current }

    /// The hotkeys "Close the poll", "Call the next viewer" and "Draw a giveaway winner", as the
    /// control API's close, next and draw do (the event API hears them the same way).
    func apply(_ input: inout SessionInput) {
        if let settings = input.message.settings {
            filters.withLock { $0 = settings.filters }
            let namesChanged = hiddenNames.withLock { names in
                defer { names = settings.hiddenUsers }
                return names != settings.hiddenUsers
            }
            // A name added keeps its viewer out of the queue they already joined, as Hide does
            // (the giveaway's draws ask at each draw: `GiveawayBoard.keepOut`).
            if namesChanged { queue.removeKeptOut() }
        }
        for action in input.actions {
            switch action {
            case .closePoll: _ = polls.close()
            case .callNext: _ = queue.next(1)
            case .drawWinner: _ = giveaways.draw()
            default: break
            }
        }
    }

    /// Whether the settings hide this viewer (their account or the name they took part under).
    private func hidesByName(_ viewer: ViewerKey, name: String) -> Bool {
        filters.withLock { $0.hidesWriter(ChatLine(id: "", user: name, login: viewer.user, text: "")) }
    }

    private struct Listened {
        var channel: ChannelRef
        var memberBadges: Set<String>?
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) {
        let listened = streams.map { Listened(channel: ChannelRef(platform: $0.service, channel: $0.channel),
                                              memberBadges: $0.memberBadges) }
        self.streams.withLock { $0 = listened }
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        switch event {
        case .channel(let id):
            guard let named = FeedEvent.channelID(id) else { return }
            streams.withLock { streams in
                if streams.indices.contains(origin.index) { streams[origin.index].channel.channel = named }
            }
        case .comment(let line):
            // The row as the feed gave it: the bar keeps `!vote 2`, `2` and `!join` off its rows
            // (`counts`, or the `!command` filter), and they still count. A viewer the streamer
            // hid in the memory never gets here (the memory drops their comments); one hidden by
            // the settings' names, or a bot, is kept out here.
            if counts(line), filters.withLock({ $0.hidesWriter(line) }) { return }
            let stream = self.stream(of: origin)
            polls.take(line, channel: stream.channel)
            let firstTime = line.platformFirstMessage || line.marks.contains { $0.kind == .firstTime }
            let member = stream.memberBadges.map { !$0.isDisjoint(with: line.badges) }
            queue.take(line, channel: stream.channel,
                       standing: Standing(firstTime: firstTime, streamsSeen: line.earlierStreams ?? 0, member: member))
            giveaways.take(line, channel: stream.channel, firstTime: firstTime)
        case .deleteUser(let user):
            giveaways.banned(user, channel: stream(of: origin).channel)
        default:
            break
        }
    }

    /// Whether a board counts the comment now: a vote in the open poll, a word of the open queue,
    /// the open giveaway's entry word. The bar keeps such a comment off its rows
    /// (`hide_audience_words`).
    func counts(_ line: ChatLine) -> Bool {
        // Asked for every comment the bar shows: no folding while nothing is open.
        guard !line.isHistory, polls.mayCount || queue.mayCount || giveaways.mayCount else { return false }
        let comment = FoldedComment(line.text)
        return polls.counts(comment) || queue.counts(comment) || giveaways.counts(comment)
    }

    func stop() async {
        polls.stop()
        pacing.cancel()
        boardChanged.finish()
    }

    private func stream(of origin: BarState.Origin) -> Listened {
        streams.withLock { streams in
            streams.indices.contains(origin.index) ? streams[origin.index]
                : Listened(channel: ChannelRef(platform: origin.service, channel: ""), memberBadges: nil)
        }
    }
}
