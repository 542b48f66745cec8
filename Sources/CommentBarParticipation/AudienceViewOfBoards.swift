// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

extension AudienceView {
    /// What the bar shows of the session's boards at unix time `now`: the poll (open, or closed
    /// until dismissed), the queue (while it is open), the giveaway's last winner (until dismissed).
    public init(polls: PollBoard, queue: QueueBoard, giveaways: GiveawayBoard, now: Double) {
        self.init(poll: polls.shown.map { PollView($0, now: now) },
                  queue: queue.current.map(QueueView.init),
                  winner: giveaways.shownWinner.map {
                      WinnerView(name: $0.name, platform: $0.viewer.channel.platform)
                  })
    }
}

extension AudienceView.PollView {
    /// `poll` at `now`: its seconds left counted in whole seconds, rounded up (a strip that shows
    /// "0:01" until the poll closes, never "0:00" while it is open).
    public init(_ poll: Poll, now: Double) {
        let tally = poll.tally
        let open = poll.isOpen(at: now)
        self.init(question: poll.question.question,
                  options: poll.question.options.enumerated().map { index, text in
                      Option(text: text, votes: tally.votes.indices.contains(index) ? tally.votes[index] : 0)
                  },
                  secondsLeft: open ? poll.closesAt.map { Int(max(0, $0 - now).rounded(.up)) } : nil,
                  closed: !open)
    }
}

extension AudienceView.QueueView {
    /// An open queue, shown even empty (viewers see they may join; a closed queue is nil and
    /// its list gone, `QueueBoard.close`).
    public init(_ queue: JoinQueue) {
        self.init(playing: queue.playing.map(\.name), next: queue.waiting.prefix(Self.shownNext).map(\.name),
                  waiting: queue.waiting.count, full: queue.waiting.count >= queue.rules.capacity,
                  joinWord: queue.words.shown)
    }
}
