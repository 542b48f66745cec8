// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarMemory
import CommentBarParticipation

/// Polls and the queue as the control API and the event API give them.
enum ParticipationWire {
    static func poll(_ poll: Poll, now: Double, dismissed: Bool = false) -> ControlPoll {
        let tally = poll.tally
        let options = poll.question.options.enumerated().map { index, text in
            ControlPoll.Option(text: text, votes: tally.votes[index],
                               platforms: tally.byPlatform.compactMapValues { $0[index] > 0 ? $0[index] : nil })
        }
        return ControlPoll(question: poll.question.question, options: options, voters: tally.voters, open: poll.isOpen(at: now),
                           openedAt: poll.openedAt, closesAt: poll.closesAt, closedAt: poll.closedAt, dismissed: dismissed)
    }

    static func queue(_ queue: JoinQueue) -> ControlQueue {
        ControlQueue(open: true, capacity: queue.rules.capacity, firstTimeFirst: queue.rules.firstTimeFirst,
                     minStreams: queue.rules.minimumStreamsSeen, membersOnly: queue.rules.membersOnly,
                     playing: queue.playing.map(entry), waiting: queue.waiting.map(entry))
    }

    static func entry(_ entry: JoinQueue.Entry) -> ControlQueue.Entry {
        ControlQueue.Entry(platform: entry.viewer.channel.platform, channel: entry.viewer.channel.channel,
                           user: entry.viewer.user, name: entry.name, count: entry.played)
    }

    static func viewer(_ viewer: ViewerKey) -> QueueViewer {
        QueueViewer(platform: viewer.channel.platform, channel: viewer.channel.channel, user: viewer.user)
    }

    static func event(_ change: PollBoard.Change) -> ControlEvent.Body {
        switch change {
        case .started(let started):
            return .pollStarted(poll(started, now: started.openedAt))
        case .closed(let closed):
            return .pollClosed(poll(closed, now: closed.closedAt ?? closed.openedAt))
        case .dismissed(let dismissed):
            return .pollDismissed(poll(dismissed, now: dismissed.closedAt ?? dismissed.openedAt, dismissed: true))
        case .voted(let option, let previous, let voter, let tally):
            // 1-based on the wire, as viewers vote (`!vote 1`).
            return .pollVote(.init(option: option + 1, previous: previous.map { $0 + 1 }, platform: voter.channel.platform,
                                   channel: voter.channel.channel, user: voter.user, votes: tally.votes, voters: tally.voters))
        }
    }

    static func event(_ change: QueueBoard.Change) -> ControlEvent.Body {
        switch change {
        case .joined(let joined, let place): return .queueJoin(.init(entry: entry(joined), place: place))
        case .left(let left): return .queueLeave(viewer(left))
        case .called(let called): return .queueNext(.init(called: called.map(entry)))
        case .changed(let changed): return .queueChanged(changed.map(queue) ?? ControlQueue.closed)
        }
    }

    static func giveaway(_ giveaway: Giveaway, now: Double, dismissed: Bool = false) -> ControlGiveaway {
        ControlGiveaway(word: giveaway.word, open: giveaway.isOpen(at: now), closesAt: giveaway.closesAt,
                        entries: giveaway.entrants.count, winners: giveaway.winners.map(viewer), dismissed: dismissed)
    }

    static func viewer(_ entrant: Giveaway.Entrant) -> ControlGiveaway.Viewer {
        ControlGiveaway.Viewer(platform: entrant.viewer.channel.platform, channel: entrant.viewer.channel.channel,
                               user: entrant.viewer.user, name: entrant.name)
    }

    static func event(_ change: GiveawayBoard.Change) -> ControlEvent.Body {
        switch change {
        case .started(let started): return .giveawayStarted(giveaway(started, now: started.startedAt))
        case .entered(let entrant, let count): return .giveawayEntry(.init(viewer: viewer(entrant), count: count))
        case .won(let entrant, let draw): return .giveawayWinner(.init(viewer: viewer(entrant), draw: draw))
        case .dismissed(let dismissed):
            return .giveawayDismissed(giveaway(dismissed, now: dismissed.closedAt ?? dismissed.startedAt, dismissed: true))
        }
    }
}
