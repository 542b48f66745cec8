// SPDX-License-Identifier: GPL-2.0-or-later
/// The bar's filters and highlights, from the settings, applied to each row before it
/// is laid out (in `BarState`, so `render`, `serve` and the tests agree).
public struct ChatFilters: Sendable, Equatable {
    let bots: BotFilter
    let hideCommands: Bool
    let ngWords: NGWordFilter
    let hiddenUsers: HiddenUserFilter
    let highlighter: Highlighter
    /// The NG words as the settings gave them (the viewer memory keeps them with the log, so its
    /// exports mask nicknames as the bar does).
    public let ngWordList: [String]

    public init(hideBots: Bool = true, botNames: [String] = [], hideCommands: Bool = true, ngWords: [String] = [],
                ngMode: NGMode = .mask, hiddenUsers: [String] = [], highlightNames: [String] = [],
                highlightPaid: Bool = true, highlightFirstMessages: Bool = true) {
        bots = BotFilter(hideKnownBots: hideBots, extraNames: botNames)
        self.hideCommands = hideCommands
        self.ngWords = NGWordFilter(words: WordMatcher(words: ngWords), mode: ngMode)
        ngWordList = Array(ngWords.prefix(WordMatcher.maxWords))
        self.hiddenUsers = HiddenUserFilter(hiddenUsers)
        highlighter = Highlighter(names: highlightNames, paidTiers: highlightPaid, firstMessages: highlightFirstMessages)
    }

    /// No filter and no highlight at all.
    public static let none = ChatFilters(hideBots: false, hideCommands: false, highlightPaid: false,
                                         highlightFirstMessages: false)

    /// The row as the bar shows it, or nil when it is hidden. `isFirstMessage`: the
    /// viewer's first row in this stream.
    public func apply(_ line: ChatLine, isFirstMessage: Bool) -> ChatLine? {
        let writer = UserNames(line)
        if hides(writer) { return nil }
        // Paid rows are never hidden as commands: the money was real.
        if hideCommands, case .comment = line.kind, CommandFilter.isCommand(line.text) { return nil }
        // The text is folded once, for the NG words and the mentions both, when either has words.
        let text = ngWords.isEmpty && highlighter.names.isEmpty ? FoldedText() : TextFolding.fold(line.text)
        guard var shown = ngWords.apply(to: line, text: text, user: writer.user) else { return nil }
        shown.highlight = highlighter.highlight(line, text: text, isFirstMessage: isFirstMessage)
        return shown
    }

    /// Whether the row's writer is a bot the filters hide or a viewer hidden by name, whatever
    /// the row says (the audience's boards keep them out too).
    public func hidesWriter(_ line: ChatLine) -> Bool {
        hides(UserNames(line))
    }

    private func hides(_ writer: UserNames) -> Bool {
        bots.isBot(writer) || hiddenUsers.isHidden(writer)
    }

    /// Whether `text` holds an NG word, matched as rows are (full-width, half-width kana,
    /// mathematical and circled letters, look-alikes, combining marks, invisible characters):
    /// for text that reaches the bar another way, such as a nickname taken from chat.
    public func containsNGWord(_ text: String) -> Bool {
        ngWords.contains(text)
    }

    /// Whether the NG words hide a row that holds one (else they are masked).
    public var ngMode: NGMode { ngWords.mode }

    /// `text` with its NG words masked with `＊`, whatever the NG mode (a caller that hides
    /// asks `containsNGWord`).
    public func maskingNGWords(in text: String) -> String {
        ngWords.masked(text)
    }
}
