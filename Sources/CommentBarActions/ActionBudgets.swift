// SPDX-License-Identifier: GPL-2.0-or-later
/// `actions_per_second` for each rule on its own: a chat busy enough to use up the `comment`
/// rule's budget leaves a gift's, a first-time viewer's or a pin's untouched (issue 46: one shared
/// budget once let two comments and a first-time viewer drop a 150-Bits gift's `gift_min:100`).
/// What each rule had refused is counted by its label, for the log.
struct ActionBudgets: Sendable {
    var perSecond: Int {
        didSet {
            perSecond = max(1, perSecond)
            for label in rates.keys { rates[label]?.perSecond = perSecond }
        }
    }
    private var rates: [String: ActionRate] = [:]
    /// Refused per rule since the last `takeRefused`.
    private var refused: [String: Int] = [:]

    init(perSecond: Int) {
        self.perSecond = max(1, perSecond)
    }

    mutating func admit(_ rule: ActionRule, now: ContinuousClock.Instant = .now) -> Bool {
        let label = rule.label
        var rate = rates[label] ?? ActionRate(perSecond: perSecond)
        let admitted = rate.admit(now: now)
        rates[label] = rate
        if !admitted { refused[label, default: 0] += 1 }
        return admitted
    }

    /// Only these rules are kept (the setting changed): a removed rule's budget goes with it.
    mutating func keep(_ rules: [ActionRule]) {
        let labels = Set(rules.map(\.label))
        rates = rates.filter { labels.contains($0.key) }
    }

    /// What each rule had refused since the last call, by label, and starts counting again.
    mutating func takeRefused() -> [String: Int] {
        defer { refused = [:] }
        return refused
    }
}
