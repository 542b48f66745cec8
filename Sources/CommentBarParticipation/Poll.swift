// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory

/// One poll (アンケート) over every stream the bar reads: each viewer account votes once (per
/// platform and channel, as the memory keys a viewer: a new display name is the same account),
/// counted per option and per platform. Open until closed, or until `closesAt`: the first comment
/// or look after it closes it at that moment, so a late vote never counts.
public struct Poll: Sendable {
    /// A viewer who votes again: their first vote stands, or their latest replaces it.
    public enum Revote: String, Sendable, CaseIterable {
        case firstStands = "first"
        case latestReplaces = "latest"
    }

    /// What a comment did to the poll.
    public enum Outcome: Sendable, Equatable {
        /// A first vote, for this option (0-based).
        case counted(Int)
        /// The viewer's vote moved (`latestReplaces`).
        case changed(from: Int, to: Int)
        /// The viewer had voted: the vote stands as it was.
        case alreadyVoted(Int)
        case notAVote
        case closed
        /// `maxVoters` have voted: a new voter is not counted (those who voted may still move theirs).
        case full
    }

    /// The most voters one poll counts: each costs the poll's memory about 200 bytes, so a poll
    /// holds at most about 20 MiB however many viewers a stream has.
    public static let maxVoters = 100_000

    /// Names the poll in the memory's file (`SavedPoll.token`).
    public let token: Int64
    public let question: PollQuestion
    public let revote: Revote
    public let openedAt: Double
    public let closesAt: Double?
    // Set again by a restore (`Poll+Saved`).
    public internal(set) var closedAt: Double?
    let bareNumbers: Bool
    private let ballot: PollBallot
    /// Each voter's vote; changed only through `record`, which keeps `tally` with it.
    private(set) var votes: [ViewerKey: Vote] = [:]
    /// The count so far, kept as the votes come.
    public private(set) var tally: PollTally

    struct Vote: Sendable {
        var option: Int
        var platform: String
        /// When it was cast or last moved (kept in the memory with the ballot).
        var at: Double
    }

    /// `seconds`: closes by itself that long after `now` (nil: when the streamer closes it).
    public init(_ question: PollQuestion, revote: Revote = .firstStands, bareNumbers: Bool = false,
                seconds: Double? = nil, now: Double, token: Int64 = BoardToken.make()) {
        self.init(question, revote: revote, bareNumbers: bareNumbers, openedAt: now,
                  closesAt: seconds.map { now + max(0, $0) }, token: token)
    }

    /// A poll with its moments as they are (a restore keeps the deadline to the microsecond).
    init(_ question: PollQuestion, revote: Revote, bareNumbers: Bool, openedAt: Double, closesAt: Double?, token: Int64) {
        self.token = token
        self.bareNumbers = bareNumbers
        self.question = question
        self.revote = revote
        self.openedAt = openedAt
        self.closesAt = closesAt
        ballot = PollBallot(options: question.options, bareNumbers: bareNumbers)
        tally = PollTally(options: question.options.count)
    }

    /// No new voter is counted (`maxVoters`).
    public var isFull: Bool { votes.count >= Self.maxVoters }

    public func isOpen(at now: Double) -> Bool {
        closedAt == nil && closesAt.map { now < $0 } ?? true
    }

    /// Whether the comment is a vote this poll counts `now` (the bar keeps it off its rows).
    public func counts(_ comment: FoldedComment, at now: Double) -> Bool {
        isOpen(at: now) && ballot.choice(comment) != nil
    }

    /// A comment from `channel`, read `now`.
    public mutating func take(_ line: ChatLine, channel: ChannelRef, at now: Double) -> Outcome {
        closeIfDue(at: now)
        guard closedAt == nil else { return .closed }
        guard !line.isHistory, let option = ballot.choice(line.text) else { return .notAVote }
        let voter = ViewerKey(channel: channel, line: line)
        guard let earlier = votes[voter] else {
            guard votes.count < Self.maxVoters else { return .full }
            record(voter, Vote(option: option, platform: channel.platform, at: now))
            return .counted(option)
        }
        guard revote == .latestReplaces, earlier.option != option else { return .alreadyVoted(earlier.option) }
        record(voter, Vote(option: option, platform: earlier.platform, at: now))
        return .changed(from: earlier.option, to: option)
    }

    public mutating func close(at now: Double) {
        closeIfDue(at: now)
        if closedAt == nil { closedAt = now }
    }

    /// Past `closesAt`: closed at that moment (not when someone looked).
    public mutating func closeIfDue(at now: Double) {
        if closedAt == nil, let closesAt, now >= closesAt { closedAt = closesAt }
    }

    /// A viewer's vote, new or moved, with the count kept as it goes: counting every ballot again
    /// for each vote cost a poll of 5,000 voters about 50 µs a vote (issue 48's flood).
    mutating func record(_ voter: ViewerKey, _ vote: Vote) {
        if let earlier = votes.updateValue(vote, forKey: voter) {
            tally.remove(option: earlier.option, platform: earlier.platform)
        }
        tally.add(option: vote.option, platform: vote.platform)
    }
}

/// A poll's votes: per option, and per option for each platform.
public struct PollTally: Sendable, Equatable {
    public private(set) var votes: [Int]
    public private(set) var byPlatform: [String: [Int]] = [:]

    init(options: Int) {
        votes = Array(repeating: 0, count: options)
    }

    public var voters: Int { votes.reduce(0, +) }

    mutating func add(option: Int, platform: String) {
        votes[option] += 1
        byPlatform[platform, default: Array(repeating: 0, count: votes.count)][option] += 1
    }

    mutating func remove(option: Int, platform: String) {
        votes[option] -= 1
        byPlatform[platform]?[option] -= 1
    }
}
