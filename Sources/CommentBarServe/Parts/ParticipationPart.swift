// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarControl
import CommentBarCore
import CommentBarMemory
import CommentBarParticipation
import CommentBarServices
import Synchronization

/// The audience takes part (issue 48): the session's poll (`PollBoard`), 参加型 queue
/// (`QueueBoard`) and giveaway (`GiveawayBoard`) hear every comment the bar hears, from its stream's channel as the memory keys
/// viewers (one vote, one place per account per channel), and their changes go to the event API
/// (`ParticipationWire`). The streamer runs them through the control API (`SessionControlBackend`).
final class ParticipationPart: SessionPart {
    let polls: PollBoard
    let queue: QueueBoard
    let giveaways: GiveawayBoard
    /// Each stream's channel, in origin order (renamed when its feed names its channel).
    private let channels = Mutex<[ChannelRef]>([])

    init(polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard, control: ControlHook) {
        self.polls = polls
        self.queue = queue
        self.giveaways = giveaways
        polls.listen { change in control.participationChanged(ParticipationWire.event(change)) }
        queue.listen { change in control.participationChanged(ParticipationWire.event(change)) }
        giveaways.listen { change in control.participationChanged(ParticipationWire.event(change)) }
    }

    /// The hotkeys "Close the poll", "Call the next viewer" and "Draw a giveaway winner", as the
    /// control API's close, next and draw do (the event API hears them the same way).
    func apply(_ input: inout SessionInput) {
        for action in input.actions {
            switch action {
            case .closePoll: _ = polls.close()
            case .callNext: _ = queue.next(1)
            case .drawWinner: _ = giveaways.draw()
            default: break
            }
        }
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
            // The row as the feed gave it: the `!command` filter hides `!vote 2` and `!join` from
            // the bar, and they still count. A viewer the streamer hid never gets here (the memory
            // drops their comments).
            let channel = self.channel(of: origin)
            polls.take(line, channel: channel)
            let firstTime = line.platformFirstMessage || line.marks.contains { $0.kind == .firstTime }
            queue.take(line, channel: channel, standing: Standing(firstTime: firstTime))
            giveaways.take(line, channel: channel, firstTime: firstTime)
        case .deleteUser(let user):
            giveaways.banned(user, channel: channel(of: origin))
        default:
            break
        }
    }

    func stop() async {
        polls.stop()
    }

    private func channel(of origin: BarState.Origin) -> ChannelRef {
        channels.withLock { channels in
            channels.indices.contains(origin.index) ? channels[origin.index] : ChannelRef(platform: origin.service, channel: "")
        }
    }
}
