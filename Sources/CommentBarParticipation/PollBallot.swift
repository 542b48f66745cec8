// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Which option a comment votes for, if it is a vote: `!vote N`, the option's own word, or (when
/// the streamer allows it) the number alone. Compared as the chat filters compare text
/// (`TextFolding`: NFKC, case, invisible characters), so `！ｖｏｔｅ　２`, `!VOTE 2` and `２` are
/// `!vote 2` and `2`; a digit of any script counts (`٢`). Anything else in the comment makes it
/// talk, not a vote: `2 is better` and `!vote 2 3` count nothing.
public struct PollBallot: Sendable {
    public static let command = "!vote"
    private let words: [String]
    private let bareNumbers: Bool

    public init(options: [String], bareNumbers: Bool) {
        words = options.map(Self.folded)
        self.bareNumbers = bareNumbers
    }

    /// The option (0-based) the comment votes for, or nil.
    public func choice(_ comment: String) -> Int? {
        choice(FoldedComment(comment))
    }

    /// The same, for a comment folded once for every board that reads it.
    public func choice(_ comment: FoldedComment) -> Int? {
        let text = comment.text
        if let index = words.firstIndex(of: text) { return index }
        if text.hasPrefix(Self.command + " ") { return number(text.dropFirst(Self.command.count + 1)) }
        return bareNumbers ? number(text) : nil
    }

    /// `1`…`9` (of any script) as an option's index.
    private func number(_ text: some StringProtocol) -> Int? {
        guard text.count == 1, let digit = text.first?.wholeNumberValue, (1...words.count).contains(digit) else { return nil }
        return digit - 1
    }

    /// A word as votes are compared: folded as the filters fold it, spaces at the ends gone and
    /// runs of spaces inside as one (`！ｖｏｔｅ　２` is `!vote 2`).
    static func folded(_ text: String) -> String {
        TextFolding.foldedString(text.trimmingWhitespace(andNewlines: true))
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// A comment's text as the boards compare it (`PollBallot.folded`), folded once for all of them.
public struct FoldedComment: Sendable, Equatable {
    public let text: String

    public init(_ comment: String) {
        text = PollBallot.folded(comment)
    }
}
