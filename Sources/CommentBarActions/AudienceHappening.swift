// SPDX-License-Identifier: GPL-2.0-or-later
/// Something the audience's participation did (issue 48), as the actions see it: which rule's
/// event it is and the arguments its action gets (`%question%`, `%name%`, …). The session makes
/// them from its poll, queue and giveaway boards; this module knows nothing of the boards.
public struct AudienceHappening: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A poll closed (by the streamer or its time): its question and result.
        case pollClosed = "poll_closed"
        /// A viewer joined the 参加型 queue.
        case queueJoin = "queue_join"
        /// The streamer called a viewer to play (one happening per viewer called).
        case queueNext = "queue_next"
        /// A giveaway's draw picked a winner.
        case giveawayWinner = "giveaway_winner"
    }

    public var kind: Kind
    public var args: [String: ActionArgument]

    public init(_ kind: Kind, args: [String: ActionArgument]) {
        self.kind = kind
        self.args = args
    }
}
