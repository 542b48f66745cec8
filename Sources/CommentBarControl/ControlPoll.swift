// SPDX-License-Identifier: GPL-2.0-or-later

/// A poll as the control API and the event API give it (`GET /api/poll`, `poll_started`,
/// `poll_closed`, `poll_dismissed`): the question, each option's votes in all and per platform,
/// the voters, whether it is open, and whether its closed result was taken off the bar.
public struct ControlPoll: Sendable, Equatable, Codable {
    public struct Option: Sendable, Equatable, Codable {
        public var text: String
        public var votes: Int
        /// Votes per platform (service id).
        public var platforms: [String: Int]

        public init(text: String, votes: Int, platforms: [String: Int]) {
            self.text = text
            self.votes = votes
            self.platforms = platforms
        }
    }

    public var question: String
    public var options: [Option]
    public var voters: Int
    public var open: Bool
    /// Unix seconds.
    public var openedAt: Double
    /// When a timed poll closes by itself.
    public var closesAt: Double?
    public var closedAt: Double?
    /// The closed result is off the bar (`POST /api/poll/dismiss`): nothing more to dismiss.
    public var dismissed: Bool

    public init(question: String, options: [Option], voters: Int, open: Bool, openedAt: Double, closesAt: Double?,
                closedAt: Double?, dismissed: Bool = false) {
        self.question = question
        self.options = options
        self.voters = voters
        self.open = open
        self.openedAt = openedAt
        self.closesAt = closesAt
        self.closedAt = closedAt
        self.dismissed = dismissed
    }

    enum CodingKeys: String, CodingKey {
        case question, options, voters, open, dismissed
        case openedAt = "opened_at"
        case closesAt = "closes_at"
        case closedAt = "closed_at"
    }
}

/// `POST /api/poll`: the question, 2 to 9 options, and optionally when it closes by itself, whether
/// a viewer's latest vote replaces their first, and whether a bare number is a vote.
public struct PollStart: Sendable, Equatable, Codable {
    public var question: String
    public var options: [String]
    public var seconds: Double?
    /// `first` (the first vote stands, the default) or `latest`.
    public var revote: String?
    public var bareNumbers: Bool?

    public init(question: String, options: [String], seconds: Double? = nil, revote: String? = nil, bareNumbers: Bool? = nil) {
        self.question = question
        self.options = options
        self.seconds = seconds
        self.revote = revote
        self.bareNumbers = bareNumbers
    }

    enum CodingKeys: String, CodingKey {
        case question, options, seconds, revote
        case bareNumbers = "bare_numbers"
    }
}

public enum PollStartOutcome: Sendable, Equatable {
    case started(ControlPoll)
    /// Why not, in words (a poll that cannot run, or no polls here).
    case refused(String)
}

extension ControlEvent {
    /// A vote counted (`previous` nil) or moved: who, for which option (1-based), and the count after.
    public struct PollVote: Sendable, Equatable, Codable {
        public var option: Int
        public var previous: Int?
        public var platform: String
        public var channel: String
        public var user: String
        /// Each option's votes after this one.
        public var votes: [Int]
        public var voters: Int

        public init(option: Int, previous: Int?, platform: String, channel: String, user: String, votes: [Int], voters: Int) {
            self.option = option
            self.previous = previous
            self.platform = platform
            self.channel = channel
            self.user = user
            self.votes = votes
            self.voters = voters
        }
    }
}
