// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarServices
import Synchronization

/// Polls (issue 48): the session's `PollBoard` hears every comment the bar hears, from its stream's
/// channel as the memory keys viewers (so a vote is one per account per channel), and its changes
/// go to the event API. The streamer starts and closes polls through the control API
/// (`SessionControlBackend`).
final class PollPart: SessionPart {
    let board: PollBoard
    /// Each stream's channel, in origin order (renamed when its feed names its channel).
    private let channels = Mutex<[ChannelRef]>([])

    init(_ board: PollBoard, control: ControlHook) {
        self.board = board
        board.listen { change in control.pollChanged(Self.event(change)) }
    }

    func streamsChanged(_ streams: [StreamPlan.Stream]) {
        channels.withLock { $0 = streams.map { ChannelRef(platform: $0.service, channel: $0.channel) } }
    }

    func heard(_ event: FeedEvent, shown: ChatLine?, origin: BarState.Origin) {
        switch event {
        case .channel(let id):
            guard let named = FeedEvent.channelID(id) else { return }
            channels.withLock { channels in
                if channels.indices.contains(origin.index) { channels[origin.index].channel = named }
            }
        case .comment(let line):
            // The row as the feed gave it: the `!command` filter hides `!vote 2` from the bar, and
            // it still counts. A viewer the streamer hid never gets here (the memory drops them).
            let channel = channels.withLock { channels in
                channels.indices.contains(origin.index) ? channels[origin.index] : ChannelRef(platform: origin.service, channel: "")
            }
            board.take(line, channel: channel)
        default:
            break
        }
    }

    func stop() async {
        board.stop()
    }

    /// A poll as the control API gives it.
    static func wire(_ poll: Poll, now: Double) -> ControlPoll {
        let tally = poll.tally
        let options = poll.question.options.enumerated().map { index, text in
            ControlPoll.Option(text: text, votes: tally.votes[index],
                               platforms: tally.byPlatform.compactMapValues { $0[index] > 0 ? $0[index] : nil })
        }
        return ControlPoll(question: poll.question.question, options: options, voters: tally.voters, open: poll.isOpen(at: now),
                           openedAt: poll.openedAt, closesAt: poll.closesAt, closedAt: poll.closedAt)
    }

    static func event(_ change: PollBoard.Change) -> ControlEvent.Body {
        switch change {
        case .started(let poll):
            return .pollStarted(wire(poll, now: poll.openedAt))
        case .closed(let poll):
            return .pollClosed(wire(poll, now: poll.closedAt ?? poll.openedAt))
        case .voted(let option, let previous, let voter, let poll):
            let tally = poll.tally
            // 1-based on the wire, as viewers vote (`!vote 1`).
            return .pollVote(.init(option: option + 1, previous: previous.map { $0 + 1 }, platform: voter.channel.platform,
                                   channel: voter.channel.channel, user: voter.user, votes: tally.votes, voters: tally.voters))
        }
    }
}
