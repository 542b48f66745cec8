// SPDX-License-Identifier: GPL-2.0-or-later
/// The bar's filters and highlights, from the settings, applied to each row before it
/// is laid out (in `BarState`, so `render`, `serve` and the tests agree).
public struct ChatFilters: Sendable, Equatable {
    let bots: BotFilter
    let hideCommands: Bool
    let ngWords: NGWordFilter
    let hiddenUsers: HiddenUserFilter
    let highlighter: Highlighter

    public init(hideBots: Bool = true, botNames: [String] = [], hideCommands: Bool = true, ngWords: [String] = [],
                ngMode: NGMode = .mask, hiddenUsers: [String] = [], highlightNames: [String] = [],
                highlightPaid: Bool = true, highlightFirstMessages: Bool = true) {
        bots = BotFilter(hideKnownBots: hideBots, extraNames: botNames)
        self.hideCommands = hideCommands
        self.ngWords = NGWordFilter(words: WordMatcher(words: ngWords), mode: ngMode)
        self.hiddenUsers = HiddenUserFilter(hiddenUsers)
        highlighter = Highlighter(names: highlightNames, paidTiers: highlightPaid, firstMessages: highlightFirstMessages)
    }

    /// No filter and no highlight at all.
    public static let none = ChatFilters(hideBots: false, hideCommands: false, highlightPaid: false,
                                         highlightFirstMessages: false)

    /// The row as the bar shows it, or nil when it is hidden. `isFirstMessage`: the
    /// viewer's first row in this stream.
    public func apply(_ line: ChatLine, isFirstMessage: Bool) -> ChatLine? {
        if bots.isBot(line) || hiddenUsers.isHidden(line) { return nil }
        // Paid rows are never hidden as commands: the money was real.
        if hideCommands, case .comment = line.kind, CommandFilter.isCommand(line.text) { return nil }
        var shown = line
        guard let text = ngWords.apply(line.text) else { return nil }
        shown.text = text
        shown.highlight = highlighter.highlight(line, isFirstMessage: isFirstMessage)
        return shown
    }
}
