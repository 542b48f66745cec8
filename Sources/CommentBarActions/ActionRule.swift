// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// One line of the `actions` setting: `EVENT=Action name`, the event being one of
/// `first_time`, `welcome_back`, `comment`, `keyword:WORD`, `gift`, `gift_min:N`, `pin`, `ng`,
/// or one of the audience's (`poll_closed`, `queue_join`, `queue_next`, `giveaway_winner`).
public struct ActionRule: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// A viewer's first comment ever on the channel (the memory's 初見, or the platform's own flag).
        case firstTime
        /// A viewer back after `welcome_back_days` (the memory's おかえり).
        case welcomeBack
        /// Any comment the bar shows (not gifts).
        case comment
        /// A comment the bar shows whose text holds the word, matched as NG words are (full-width,
        /// half-width kana, look-alike letters and case all count as the word).
        case keyword(String)
        /// Any gift, paid message or sub.
        case gift
        /// A gift whose amount (`GiftAmount`) is at least this.
        case giftMin(Double)
        /// A comment was pinned to the bar (the control page, the hotkey).
        case pin
        /// A comment or gift that holds an NG word (masked on the bar, or hidden).
        case ng
        /// A poll closed, a viewer joined the queue or was called, a giveaway was drawn (issue 48).
        case audience(AudienceHappening.Kind)
    }

    public var event: Event
    /// The Streamer.bot action's name, as typed.
    public var action: String

    public init(event: Event, action: String) {
        self.event = event
        self.action = action
    }

    /// The rule as the log names it (`gift_min:100=Big thanks`): each rule has its own budget.
    var label: String {
        let event: String
        switch self.event {
        case .keyword(let word): event = "keyword:\(word)"
        case .giftMin(let minimum):
            event = "gift_min:" + (minimum == minimum.rounded() && abs(minimum) < 1e15 ? String(Int(minimum)) : String(minimum))
        default: event = ActionMatcher.name(self.event)
        }
        return "\(event)=\(action)"
    }

    /// `comment` rules run for every comment: when the queue is full they give way first, so a
    /// busy chat never pushes out a gift, a first-time viewer, a welcome back, a pin or a keyword.
    var yields: Bool { event == .comment }

    /// Every rule of the setting that reads, and one message per line that does not.
    public static func parse(_ lines: [String]) -> (rules: [ActionRule], problems: [String]) {
        var rules: [ActionRule] = []
        var problems: [String] = []
        for (number, line) in lines.enumerated() {
            let text = line.trimmingWhitespace(andNewlines: true)
            if text.isEmpty || text.hasPrefix("#") { continue }
            switch parse(line: text) {
            case .success(let rule): rules.append(rule)
            case .failure(let failure):
                problems.append("actions: rule \(number + 1) \(String(reflecting: String(text.prefix(60)))): \(failure.why)")
            }
        }
        return (rules, problems)
    }

    struct Unreadable: Error {
        var why: String
    }

    static func parse(line: String) -> Result<ActionRule, Unreadable> {
        guard let equals = line.firstIndex(of: "=") else {
            return .failure(Unreadable(why: "no =, expected EVENT=Action name"))
        }
        let name = String(line[..<equals]).trimmingWhitespace()
        let action = String(line[line.index(after: equals)...]).trimmingWhitespace()
        guard !action.isEmpty else { return .failure(Unreadable(why: "no action name after =")) }
        guard action.unicodeScalars.count <= 200 else { return .failure(Unreadable(why: "the action's name is too long")) }
        let (kind, argument) = name.firstIndex(of: ":").map {
            (name[..<$0].lowercased(), String(name[name.index(after: $0)...]).trimmingWhitespace())
        } ?? (name.lowercased(), "")
        let event: Event
        switch (kind, argument.isEmpty) {
        case ("first_time", true): event = .firstTime
        case ("welcome_back", true): event = .welcomeBack
        case ("comment", true): event = .comment
        case ("gift", true): event = .gift
        case ("pin", true): event = .pin
        case ("ng", true): event = .ng
        case (let name, true) where AudienceHappening.Kind(rawValue: name) != nil:
            event = .audience(AudienceHappening.Kind(rawValue: name) ?? .pollClosed)
        case ("keyword", false): event = .keyword(argument)
        case ("gift_min", false):
            guard let minimum = Double(argument), minimum.isFinite, minimum >= 0 else {
                return .failure(Unreadable(why: "gift_min needs a number (gift_min:500)"))
            }
            event = .giftMin(minimum)
        case ("keyword", true):
            return .failure(Unreadable(why: "keyword needs a word (keyword:こんにちは)"))
        case ("gift_min", true):
            return .failure(Unreadable(why: "gift_min needs a number (gift_min:500)"))
        default:
            return .failure(Unreadable(why: "unknown event \(String(reflecting: String(name.prefix(30)))) "
                                       + "(known: first_time, welcome_back, comment, keyword:WORD, gift, gift_min:N, pin, ng, "
                                       + "poll_closed, queue_join, queue_next, giveaway_winner)"))
        }
        return .success(ActionRule(event: event, action: action))
    }
}
