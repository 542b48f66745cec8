// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What is wrong with a poll the streamer asked for, in words for the bar and the log.
public struct PollProblem: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// A poll's question and its options, as the streamer gives them: checked once, when it starts.
public struct PollQuestion: Sendable, Equatable {
    public let question: String
    public let options: [String]

    /// アンケート polls have two to nine options: one digit names each.
    public static let optionCounts = 2...9
    /// Long enough for a sentence on the bar's strip; longer is a mistake, not a question.
    public static let maxCharacters = 200

    public init(question: String, options: [String]) throws(PollProblem) {
        let question = question.trimmingWhitespace(andNewlines: true)
        let options = options.map { $0.trimmingWhitespace(andNewlines: true) }
        guard !question.isEmpty else { throw PollProblem(description: "a poll needs a question") }
        guard Self.optionCounts.contains(options.count) else {
            throw PollProblem(description: "a poll has 2 to 9 options, not \(options.count)")
        }
        if let empty = options.firstIndex(where: \.isEmpty) {
            throw PollProblem(description: "option \(empty + 1) of the poll is empty")
        }
        for text in [question] + options where text.count > Self.maxCharacters {
            throw PollProblem(description: "\(String(reflecting: String(text.prefix(40))))… is over \(Self.maxCharacters) characters")
        }
        // Two options a viewer's word cannot tell apart (`Ａ` and `a`) would split one answer.
        let folded = options.map(PollBallot.folded)
        for (index, word) in folded.enumerated() {
            if let earlier = folded[..<index].firstIndex(of: word) {
                throw PollProblem(description: "options \(earlier + 1) and \(index + 1) of the poll are the same word")
            }
        }
        self.question = question
        self.options = options
    }
}
