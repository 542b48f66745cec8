// SPDX-License-Identifier: GPL-2.0-or-later

/// What the bar shows of the audience taking part (issue 48): the poll, the 参加型 queue and the
/// giveaway's winner, as plain values. The session makes it from its boards at most four times a
/// second (`ParticipationPart`); the renderer lays its strip out again only when it differs, so it
/// holds nothing that changes without changing the picture (no vote's voter, no clock).
public struct AudienceView: Sendable, Equatable {
    public var poll: PollView?
    public var queue: QueueView?
    public var winner: WinnerView?

    public init(poll: PollView? = nil, queue: QueueView? = nil, winner: WinnerView? = nil) {
        self.poll = poll
        self.queue = queue
        self.winner = winner
    }

    /// Nothing to show: no strip.
    public var isEmpty: Bool { poll == nil && queue == nil && winner == nil }

    /// The poll as the bar shows it: the question, each option with its votes, and either the
    /// whole seconds left (a timed poll still open) or that it is closed.
    public struct PollView: Sendable, Equatable {
        public var question: String
        public var options: [Option]
        /// Whole seconds left, rounded up (nil: not timed, or closed).
        public var secondsLeft: Int?
        public var closed: Bool

        public struct Option: Sendable, Equatable {
            public var text: String
            public var votes: Int

            public init(text: String, votes: Int) {
                self.text = text
                self.votes = votes
            }
        }

        public init(question: String, options: [Option], secondsLeft: Int? = nil, closed: Bool = false) {
            self.question = question
            self.options = options
            self.secondsLeft = secondsLeft
            self.closed = closed
        }

        /// All votes cast.
        public var total: Int { options.reduce(0) { $0 + $1.votes } }

        /// The option with the most votes (the first of a tie; the first when none voted).
        public var leading: Int {
            options.indices.max { a, b in
                options[a].votes < options[b].votes || (options[a].votes == options[b].votes && a > b)
            } ?? 0
        }
    }

    /// The queue as the bar shows it: who plays now, the next ones (at most `shownNext`), and how
    /// many wait in all.
    public struct QueueView: Sendable, Equatable {
        /// The bar names the next five; the rest are a count.
        public static let shownNext = 5
        public var playing: [String]
        public var next: [String]
        public var waiting: Int
        /// The queue is at its capacity: the bar says so.
        public var full: Bool
        /// The word that joins, as the streamer gave it first: the bar shows it while nobody waits.
        public var joinWord: String

        public init(playing: [String], next: [String], waiting: Int, full: Bool = false, joinWord: String = "!join") {
            self.playing = playing
            self.next = Array(next.prefix(Self.shownNext))
            self.waiting = waiting
            self.full = full
            self.joinWord = joinWord
        }
    }

    /// The giveaway's winner, pinned while the giveaway has one.
    public struct WinnerView: Sendable, Equatable {
        public var name: String
        /// The platform's name as the bar says it (`twitch`, `youtube`).
        public var platform: String

        public init(name: String, platform: String) {
            self.name = name
            self.platform = platform
        }
    }
}
