// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory

/// A giveaway (抽選) over every merged stream: viewers enter with a word while it is open, one
/// entry per account; who may enter follows `GiveawayRules` from what the memory says of the
/// viewer (`Eligibility`). The draw takes the operating system's random source (Swift's
/// `SystemRandomNumberGenerator`: getrandom), a re-draw never picks an earlier winner, and every
/// draw is kept.
public struct Giveaway: Sendable {
    public struct Entrant: Sendable, Equatable {
        public var viewer: ViewerKey
        public var name: String
    }

    public enum Outcome: Sendable, Equatable {
        case entered(count: Int)
        case alreadyEntered
        case refused(String)
        case closed
        case notAWord
    }

    /// The most entries one giveaway takes (its memory bounded as a poll's is).
    public static let maxEntrants = 100_000

    /// Names the giveaway in the memory's file (`SavedGiveaway.token`).
    public let token: Int64
    public let rules: GiveawayRules
    public let startedAt: Double
    public let closesAt: Double?
    // Set by a restore too (`Giveaway+Saved`).
    public internal(set) var closedAt: Double?
    public internal(set) var entrants: [Entrant] = []
    /// Every winner drawn, in order (a re-draw adds one).
    public internal(set) var winners: [Entrant] = []
    var entered: Set<ViewerKey> = []
    /// The entry word, as comments are compared with it.
    public let word: String

    /// `seconds`: entries close by themselves that long after `now` (nil: when the streamer draws
    /// or closes).
    public init(word: String, rules: GiveawayRules = GiveawayRules(), seconds: Double? = nil, now: Double,
                token: Int64 = BoardToken.make()) throws(PollProblem) {
        try self.init(word: word, rules: rules, startedAt: now, closesAt: seconds.map { now + max(0, $0) }, token: token)
    }

    /// A giveaway with its moments as they are (a restore keeps them exactly).
    init(word: String, rules: GiveawayRules, startedAt: Double, closesAt: Double?, token: Int64) throws(PollProblem) {
        let folded = PollBallot.folded(word)
        guard !folded.isEmpty else { throw PollProblem(description: "a giveaway needs an entry word") }
        guard folded.count <= JoinWords.maxCharacters else {
            throw PollProblem(description: "an entry word is at most \(JoinWords.maxCharacters) characters")
        }
        self.word = folded
        self.rules = rules
        self.token = token
        self.startedAt = startedAt
        self.closesAt = closesAt
    }

    public mutating func take(_ line: ChatLine, channel: ChannelRef, eligibility: Eligibility, at now: Double) -> Outcome {
        if closedAt == nil, let closesAt, now >= closesAt { closedAt = closesAt }
        guard !line.isHistory, PollBallot.folded(line.text) == word else { return .notAWord }
        guard closedAt == nil else { return .closed }
        let viewer = ViewerKey(channel: channel, line: line)
        guard !entered.contains(viewer) else { return .alreadyEntered }
        guard !isFull else { return .refused("the giveaway has the most entries it takes") }
        if let reason = rules.refusal(eligibility) { return .refused(reason) }
        entered.insert(viewer)
        entrants.append(Entrant(viewer: viewer, name: line.shownName))
        return .entered(count: entrants.count)
    }

    /// Whether the comment is the entry word while entries are open (the bar keeps it off its rows).
    public func counts(_ comment: FoldedComment, at now: Double) -> Bool {
        isOpen(at: now) && comment.text == word
    }

    /// No new entry is taken (`maxEntrants`).
    public var isFull: Bool { entrants.count >= Self.maxEntrants }

    public func isOpen(at now: Double) -> Bool {
        closedAt == nil && closesAt.map { now < $0 } ?? true
    }

    /// Closes the entries (a draw does too).
    public mutating func close(at now: Double) {
        if closedAt == nil { closedAt = min(now, closesAt ?? now) }
    }

    /// Draws a winner among the entrants not drawn before and not `excluded` since they entered
    /// (hidden by the streamer, banned): nil when none is left.
    public mutating func draw(at now: Double, excluding excluded: (ViewerKey) -> Bool = { _ in false }) -> Entrant? {
        var random = SystemRandomNumberGenerator()
        return draw(at: now, excluding: excluded, using: &random)
    }

    mutating func draw(at now: Double, excluding excluded: (ViewerKey) -> Bool = { _ in false },
                       using random: inout some RandomNumberGenerator) -> Entrant? {
        close(at: now)
        let drawn = Set(winners.map(\.viewer))
        guard let winner = entrants.filter({ !drawn.contains($0.viewer) && !excluded($0.viewer) }).randomElement(using: &random)
        else { return nil }
        winners.append(winner)
        return winner
    }
}

/// What the memory says of a viewer who enters.
public struct Eligibility: Sendable, Equatable {
    /// Their comments on this stream so far.
    public var commentsThisStream: Int
    public var firstTime: Bool
    public var hidden: Bool
    /// Banned or timed out on this stream.
    public var banned: Bool

    public init(commentsThisStream: Int = 0, firstTime: Bool = false, hidden: Bool = false, banned: Bool = false) {
        self.commentsThisStream = commentsThisStream
        self.firstTime = firstTime
        self.hidden = hidden
        self.banned = banned
    }
}

public struct GiveawayRules: Sendable, Equatable {
    /// At least this many comments this stream (the entry word itself counts as one).
    public var minimumComments: Int
    public var firstTimeViewers: Bool

    public init(minimumComments: Int = 0, firstTimeViewers: Bool = true) {
        self.minimumComments = max(0, minimumComments)
        self.firstTimeViewers = firstTimeViewers
    }

    func refusal(_ viewer: Eligibility) -> String? {
        if viewer.hidden { return "hidden by the streamer" }
        if viewer.banned { return "banned on this stream" }
        if !firstTimeViewers, viewer.firstTime { return "first-time viewers are not in this giveaway" }
        if viewer.commentsThisStream < minimumComments {
            return "\(viewer.commentsThisStream) of the \(minimumComments) comments this stream needed"
        }
        return nil
    }
}
