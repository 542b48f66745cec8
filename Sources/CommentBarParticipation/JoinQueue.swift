// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarMemory

/// A 参加型 (viewer-participation) queue over every merged stream: viewers join and leave with a
/// word, one place per account (as the memory keys a viewer), up to a capacity; the streamer calls
/// the next ones ("playing now"), marks them done, removes or moves anyone. Who may join, and who
/// goes first, follows the rules (`JoinRules`) from what the memory and the platform say of the
/// viewer (`Standing`). Each account's times played are counted, as OneComme's order items are.
public struct JoinQueue: Sendable {
    /// One viewer in the queue.
    public struct Entry: Sendable, Equatable {
        public var viewer: ViewerKey
        /// The name shown (the nickname where the memory has one).
        public var name: String
        /// Times this account was called before (this queue's life and the queues closed before it).
        public var played: Int
        /// First-time viewers go before the others when the rules say so.
        public var firstTime: Bool
    }

    /// What a comment did to the queue.
    public enum Outcome: Sendable, Equatable {
        /// Joined at this place (1-based) in the waiting line.
        case joined(place: Int)
        case alreadyIn(place: Int)
        case playing
        case left
        /// A leave word from a viewer who was not waiting.
        case notWaiting
        /// The queue is full: the bar says so.
        case full
        /// The rules keep this viewer out (the reason, for the log).
        case refused(String)
        case notAWord
    }

    public private(set) var rules: JoinRules
    // Set by a restore too (`JoinQueue+Saved`).
    public internal(set) var waiting: [Entry] = []
    public internal(set) var playing: [Entry] = []
    var timesPlayed: [ViewerKey: Int] = [:]
    var words: JoinWords

    /// `timesPlayed`: each account's plays before this queue (the ones closed before).
    public init(rules: JoinRules = JoinRules(), words: JoinWords = JoinWords(), timesPlayed: [ViewerKey: Int] = [:]) {
        self.rules = rules
        self.words = words
        self.timesPlayed = timesPlayed
    }

    /// New rules and words from now on: who waits stays, beyond a smaller capacity too.
    public mutating func reconfigure(rules: JoinRules, words: JoinWords) {
        self.rules = rules
        self.words = words
    }

    /// Whether the comment is one of the open queue's join or leave words (the bar keeps it off its rows).
    public func counts(_ comment: FoldedComment) -> Bool {
        words.word(comment) != nil
    }

    /// A comment from `channel` by a viewer of `standing`.
    public mutating func take(_ line: ChatLine, channel: ChannelRef, standing: Standing) -> Outcome {
        guard !line.isHistory, let word = words.word(line.text) else { return .notAWord }
        let viewer = ViewerKey(channel: channel, line: line)
        switch word {
        case .leave:
            let before = waiting.count
            waiting.removeAll { $0.viewer == viewer }
            return waiting.count < before ? .left : .notWaiting
        case .join:
            if let place = waiting.firstIndex(where: { $0.viewer == viewer }) { return .alreadyIn(place: place + 1) }
            if playing.contains(where: { $0.viewer == viewer }) { return .playing }
            if let reason = rules.refusal(standing) { return .refused(reason) }
            guard waiting.count < rules.capacity else { return .full }
            let entry = Entry(viewer: viewer, name: line.shownName, played: timesPlayed[viewer, default: 0],
                              firstTime: standing.firstTime)
            // First-time viewers go after the first-time viewers already waiting, before the others.
            let place = rules.firstTimeFirst && entry.firstTime ? (waiting.firstIndex { !$0.firstTime } ?? waiting.count) : waiting.count
            waiting.insert(entry, at: place)
            return .joined(place: place + 1)
        }
    }

    /// The next `count` waiting viewers play now; the ones playing before are done. Those called,
    /// their times played counting this one.
    @discardableResult
    public mutating func next(_ count: Int = 1) -> [Entry] {
        markDone()
        let called = Array(waiting.prefix(max(0, count)))
        waiting.removeFirst(called.count)
        for entry in called { timesPlayed[entry.viewer, default: 0] += 1 }
        playing = called.map { entry in
            var entry = entry
            entry.played += 1
            return entry
        }
        return playing
    }

    /// The viewers playing now are done.
    public mutating func markDone() {
        playing.removeAll()
    }

    /// Takes a viewer out, waiting or playing. Whether one was there.
    @discardableResult
    public mutating func remove(_ viewer: ViewerKey) -> Bool {
        let before = waiting.count + playing.count
        waiting.removeAll { $0.viewer == viewer }
        playing.removeAll { $0.viewer == viewer }
        return waiting.count + playing.count < before
    }

    /// Moves a waiting viewer to `place` (1-based; past the end: last). Whether they were waiting.
    @discardableResult
    public mutating func move(_ viewer: ViewerKey, to place: Int) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.viewer == viewer }) else { return false }
        let entry = waiting.remove(at: index)
        waiting.insert(entry, at: min(max(place - 1, 0), waiting.count))
        return true
    }
}

/// What the memory and the platform say of a viewer who wants to join.
public struct Standing: Sendable, Equatable {
    /// Their first stream on this channel (初見).
    public var firstTime: Bool
    /// Earlier streams of this channel they commented on (the memory's count).
    public var streamsSeen: Int
    /// A member or subscriber, where the platform says so (nil: the platform does not say).
    public var member: Bool?
    /// Hidden by the streamer (the memory): never in the queue.
    public var hidden: Bool

    public init(firstTime: Bool = false, streamsSeen: Int = 0, member: Bool? = nil, hidden: Bool = false) {
        self.firstTime = firstTime
        self.streamsSeen = streamsSeen
        self.member = member
        self.hidden = hidden
    }
}

/// Who may join and who goes first.
public struct JoinRules: Sendable, Equatable {
    public var capacity: Int
    public var firstTimeFirst: Bool
    /// Regulars only: seen on at least this many earlier streams (0: anyone).
    public var minimumStreamsSeen: Int
    /// Members or subscribers only, where the platform says who is one.
    public var membersOnly: Bool

    public static let capacities = 1...500

    public init(capacity: Int = 50, firstTimeFirst: Bool = false, minimumStreamsSeen: Int = 0, membersOnly: Bool = false) {
        self.capacity = min(max(capacity, Self.capacities.lowerBound), Self.capacities.upperBound)
        self.firstTimeFirst = firstTimeFirst
        self.minimumStreamsSeen = max(0, minimumStreamsSeen)
        self.membersOnly = membersOnly
    }

    /// Why `standing` keeps a viewer out, or nil.
    func refusal(_ standing: Standing) -> String? {
        if standing.hidden { return "hidden by the streamer" }
        if standing.streamsSeen < minimumStreamsSeen {
            return "regulars only: seen on \(standing.streamsSeen) of the \(minimumStreamsSeen) earlier streams needed"
        }
        // A platform that does not say who is a member lets everyone in: the rule is that platform's.
        if membersOnly, standing.member == false { return "members only" }
        return nil
    }
}

/// The words that join and leave, compared as votes are (`PollBallot.folded`): the whole comment.
public struct JoinWords: Sendable {
    enum Word { case join, leave }
    let join: Set<String>
    let leave: Set<String>
    /// The first join word as the streamer gave it (the bar shows it while nobody waits).
    public let shown: String

    public static let defaultJoin = ["!join", "!参加"]
    public static let defaultLeave = ["!leave", "!キャンセル"]
    /// A word is a short command; a few of them each way.
    public static let maxCharacters = 100
    public static let maxWords = 10

    /// What is wrong with a list of words the streamer gave, or nil.
    public static func problem(_ words: [String], named name: String) -> String? {
        if words.count > maxWords { return "at most \(maxWords) \(name) words" }
        if words.contains(where: { $0.count > maxCharacters }) { return "a \(name) word is at most \(maxCharacters) characters" }
        if !words.contains(where: { !PollBallot.folded($0).isEmpty }) { return "give at least one \(name) word" }
        return nil
    }

    public init(join: [String] = JoinWords.defaultJoin, leave: [String] = JoinWords.defaultLeave) {
        self.join = Set(join.map(PollBallot.folded).filter { !$0.isEmpty })
        shown = join.lazy.map { $0.trimmingWhitespace(andNewlines: true) }.first { !PollBallot.folded($0).isEmpty } ?? "!join"
        self.leave = Set(leave.map(PollBallot.folded).filter { !$0.isEmpty })
    }

    /// The join words to keep, folded (one a line in the memory's file): the shown one first (a
    /// restored queue shows it again, folded), then the others.
    var savedJoin: [String] {
        let first = PollBallot.folded(shown)
        return [first] + join.subtracting([first]).sorted()
    }

    func word(_ comment: String) -> Word? {
        word(FoldedComment(comment))
    }

    func word(_ comment: FoldedComment) -> Word? {
        let text = comment.text
        if join.contains(text) { return .join }
        if leave.contains(text) { return .leave }
        return nil
    }
}
