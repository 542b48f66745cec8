// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// A row of the bar as a rule sees it: the row as the bar shows it (filtered, NG words masked,
/// the memory's badges and nickname on it) and the stream it came from.
public struct ActionRow: Sendable {
    public var line: ChatLine
    /// The service id (`youtube`) and the channel the memory keys viewers by (else the stream's id).
    public var platform: String
    public var channel: String

    public init(line: ChatLine, platform: String, channel: String) {
        self.line = line
        self.platform = platform
        self.channel = line.channel ?? channel
    }
}

/// Which rules a row matches, and the DoAction each sends, with the row as flat `args`
/// (`platform`, `channel`, `user`, `name`, `nickname`, `text`, `first_time`, `count`, `gift`,
/// `amount`, `currency`, `welcome_back_days`, `id`, and `event`, the rule's event).
struct ActionMatcher: Sendable {
    let rules: [ActionRule]
    /// The bar's filters: `ng` rules ask whether a row held an NG word.
    let filters: ChatFilters
    /// The memory's threshold, sent as `welcome_back_days` with a welcome back.
    let welcomeBackDays: Int
    /// One matcher per keyword rule, folding text as NG words are folded.
    private let keywords: [String: ChatFilters]

    init(rules: [ActionRule], filters: ChatFilters, welcomeBackDays: Int) {
        self.rules = rules
        self.filters = filters
        self.welcomeBackDays = welcomeBackDays
        var keywords: [String: ChatFilters] = [:]
        for rule in rules {
            if case .keyword(let word) = rule.event {
                keywords[word] = ChatFilters(hideBots: false, hideCommands: false, ngWords: [word], highlightPaid: false,
                                             highlightFirstMessages: false)
            }
        }
        self.keywords = keywords
    }

    var isEmpty: Bool { rules.isEmpty }
    var hasPinRules: Bool { rules.contains { $0.event == .pin } }

    /// The actions a comment or gift the bar applied runs: `shown` is the row as shown (nil:
    /// filtered out), `original` the row as the feed gave it (for `ng`). History (recent chat
    /// from before the bar connected) runs nothing.
    func actions(shown: ActionRow?, original: ActionRow) -> [MatchedAction] {
        guard !original.line.isHistory else { return [] }
        var found: [MatchedAction] = []
        let holdsNGWord = rules.contains { $0.event == .ng }
            && (filters.containsNGWord(original.line.text) || filters.containsNGWord(original.line.user))
        for rule in rules {
            if rule.event == .ng {
                guard holdsNGWord else { continue }
                // Never the NG word itself: the text as the bar masks it.
                var masked = original
                masked.line.text = filters.maskingNGWords(in: original.line.text)
                masked.line.user = filters.maskingNGWords(in: original.line.user)
                var args = Self.args(masked, event: "ng", welcomeBackDays: welcomeBackDays)
                args["hidden"] = .flag(shown == nil)
                found.append(MatchedAction(rule: rule, request: DoAction(action: rule.action, args: args)))
                continue
            }
            guard let shown, matches(rule.event, shown.line) else { continue }
            let args = Self.args(shown, event: Self.name(rule.event), welcomeBackDays: welcomeBackDays)
            found.append(MatchedAction(rule: rule, request: DoAction(action: rule.action, args: args)))
        }
        return found
    }

    /// The actions a newly pinned row runs.
    func actions(pinned: ActionRow) -> [MatchedAction] {
        rules.filter { $0.event == .pin }.map {
            MatchedAction(rule: $0, request: DoAction(action: $0.action,
                                                      args: Self.args(pinned, event: "pin", welcomeBackDays: welcomeBackDays)))
        }
    }

    private func matches(_ event: ActionRule.Event, _ line: ChatLine) -> Bool {
        let isGift = if case .gift = line.kind { true } else { false }
        switch event {
        case .firstTime: return line.marks.contains { $0.kind == .firstTime }
        case .welcomeBack: return line.marks.contains { $0.kind == .back }
        case .comment: return line.kind == .comment || line.kind == .action
        case .keyword(let word):
            return !isGift && keywords[word]?.containsNGWord(line.text) == true
        case .gift: return isGift
        case .giftMin(let minimum):
            guard case .gift(let name, let count) = line.kind else { return false }
            return GiftAmount(name: name, count: count).amount >= minimum
        case .pin, .ng, .audience: return false
        }
    }

    /// The actions the audience's happening runs: its arguments, and `event`.
    func actions(_ happening: AudienceHappening) -> [MatchedAction] {
        rules.filter { $0.event == .audience(happening.kind) }.map { rule in
            var args = happening.args
            args["event"] = .text(happening.kind.rawValue)
            return MatchedAction(rule: rule, request: DoAction(action: rule.action, args: args))
        }
    }

    static func name(_ event: ActionRule.Event) -> String {
        switch event {
        case .firstTime: return "first_time"
        case .welcomeBack: return "welcome_back"
        case .comment: return "comment"
        case .keyword: return "keyword"
        case .gift: return "gift"
        case .giftMin: return "gift_min"
        case .pin: return "pin"
        case .ng: return "ng"
        case .audience(let kind): return kind.rawValue
        }
    }

    /// The row as flat arguments (only what applies: a gift's keys on gifts, a nickname when there is one).
    static func args(_ row: ActionRow, event: String, welcomeBackDays: Int) -> [String: ActionArgument] {
        let line = row.line
        var args: [String: ActionArgument] = [
            "event": .text(event),
            "platform": .text(row.platform),
            "channel": .text(row.channel),
            "user": .text(line.login ?? line.user),
            "name": .text(line.user),
            "text": .text(line.text),
            "first_time": .flag(line.marks.contains { $0.kind == .firstTime }),
            "id": .text(line.id),
        ]
        if let nickname = line.nickname { args["nickname"] = .text(nickname) }
        if case .gift(let name, let count) = line.kind {
            let value = GiftAmount(name: name, count: count)
            args["gift"] = .text(name)
            args["count"] = .integer(min(max(count, 0), FeedEventJSON.maxCount))
            args["amount"] = .number(value.amount)
            if !value.currency.isEmpty { args["currency"] = .text(value.currency) }
        }
        if line.marks.contains(where: { $0.kind == .back }) { args["welcome_back_days"] = .integer(welcomeBackDays) }
        return args
    }
}
