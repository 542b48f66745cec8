// SPDX-License-Identifier: GPL-2.0-or-later
/// Rows that stand out, in order of precedence: a colour the platform gave (a Super
/// Chat's tier), a paid row's tier, a mention of the streamer, a viewer's first message.
struct Highlighter: Sendable, Equatable {
    static let mention = RGBColor(red: 0x7E, green: 0x57, blue: 0xC2)
    static let firstMessage = RGBColor(red: 0x26, green: 0xA6, blue: 0x9A)
    /// Paid tiers by count, as Twitch colours cheers: 1, 100, 1,000, 5,000, 10,000.
    static let paidTiers: [(minimum: Int, color: RGBColor)] = [
        (10_000, RGBColor(red: 0xF4, green: 0x43, blue: 0x36)),
        (5_000, RGBColor(red: 0x21, green: 0x96, blue: 0xF3)),
        (1_000, RGBColor(red: 0x1D, green: 0xB9, blue: 0x8A)),
        (100, RGBColor(red: 0x9C, green: 0x27, blue: 0xB0)),
    ]

    let names: WordMatcher
    let paidTiers: Bool
    let firstMessages: Bool

    init(names: [String], paidTiers: Bool, firstMessages: Bool) {
        self.names = WordMatcher(words: names)
        self.paidTiers = paidTiers
        self.firstMessages = firstMessages
    }

    /// `text`: the row's text folded (`TextFolding`).
    func highlight(_ line: ChatLine, text: FoldedText, isFirstMessage: Bool) -> RGBColor? {
        if let given = line.highlight { return given }
        if case .gift(_, let count) = line.kind {
            return paidTiers ? Self.paidTiers.first { count >= $0.minimum }?.color : nil
        }
        if names.containsMatch(in: text) { return Self.mention }
        if firstMessages, isFirstMessage, line.kind == .comment { return Self.firstMessage }
        return nil
    }
}
