// SPDX-License-Identifier: GPL-2.0-or-later

/// A poll as the memory keeps it (issue 48): the open or last poll of a source, and every closed
/// one as history (`commentbar poll list/show`). Plain values: the participation engines make
/// them and are made again from them after a restart.
public struct SavedPoll: Sendable, Equatable {
    /// The renderer's own number for the poll, made when it starts: its ballots name it before
    /// the file has given the poll a row (the writer is asynchronous).
    public var token: Int64
    /// The source whose poll it is (`BoardSource`).
    public var source: String
    public var question: String
    public var options: [String]
    /// `Poll.Revote`'s raw value.
    public var revote: String
    public var bareNumbers: Bool
    public var openedAt: Double
    public var closesAt: Double?
    public var closedAt: Double?
    /// The streamer took the closed result off the bar.
    public var dismissed: Bool
    /// Every viewer's vote, one per account.
    public var ballots: [SavedBallot]
    /// The file's number for it (`commentbar poll show ID`); nil in what the renderer writes.
    public var id: Int64?

    public init(token: Int64, source: String, question: String, options: [String], revote: String, bareNumbers: Bool,
                openedAt: Double, closesAt: Double?, closedAt: Double?, dismissed: Bool, ballots: [SavedBallot] = [],
                id: Int64? = nil) {
        self.token = token
        self.source = source
        self.question = question
        self.options = options
        self.revote = revote
        self.bareNumbers = bareNumbers
        self.openedAt = openedAt
        self.closesAt = closesAt
        self.closedAt = closedAt
        self.dismissed = dismissed
        self.ballots = ballots
        self.id = id
    }

    /// Votes per option, and per option for each platform (the CSV's rows).
    public var votesByPlatform: [String: [Int]] {
        var counts: [String: [Int]] = [:]
        for ballot in ballots where options.indices.contains(ballot.option) {
            counts[ballot.voter.channel.platform, default: Array(repeating: 0, count: options.count)][ballot.option] += 1
        }
        return counts
    }
}

/// One viewer account's vote: the option (0-based) and when it was cast (or last moved).
public struct SavedBallot: Sendable, Equatable {
    public var voter: ViewerKey
    public var option: Int
    public var at: Double

    public init(voter: ViewerKey, option: Int, at: Double) {
        self.voter = voter
        self.option = option
        self.at = at
    }
}

/// A new number for a poll or a giveaway: random, so two renderers writing one file (two
/// sources) never pick the same one.
public enum BoardToken {
    public static func make() -> Int64 { Int64.random(in: 1...Int64.max) }
}
