// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// What is read aloud for a row of the bar (docs/speech.md). The row has already been through
/// the bar's filters: hidden users, bots, commands and NG words in hide mode never get here,
/// and NG words in mask mode arrive as `＊` runs, which are never read.
public struct ReadingRules: Sendable, Equatable {
    public var readNames: Bool
    public var maxCharacters: Int

    public init(readNames: Bool = true, maxCharacters: Int = 80) {
        self.readNames = readNames
        self.maxCharacters = max(maxCharacters, 1)
    }

    public init(_ settings: SpeechSettings) {
        self.init(readNames: settings.readNames, maxCharacters: settings.maxCharacters)
    }

    /// The sentence for a row, or nil when nothing of it is to be read.
    public func sentence(for line: ChatLine) -> String? {
        let body = Self.cleaned(line.text, emotes: line.emotes)
        let name = Self.cleaned(line.shownName, emotes: [])  // the nickname, where the viewer memory knows one
        switch line.kind {
        case .gift(let gift, let count):
            let giftName = Self.cleaned(gift, emotes: [])
            let language = SpeechLanguage.of(name + giftName + body)
            let who = name.isEmpty ? (language == .japanese ? "だれか" : "Someone") : name
            let what = giftName.isEmpty ? (language == .japanese ? "ギフト" : "a gift") : giftName
            let count = max(count, 1)
            var said = language == .japanese
                ? "\(who)さんから\(what)\(count > 1 ? "を\(count)個" : "")"
                : "\(who) sent \(count > 1 ? "\(count) × " : "")\(what)"
            if !body.isEmpty { said += language == .japanese ? "。" + cut(body) : ". " + cut(body) }
            return said
        case .notice:
            return body.isEmpty ? nil : cut(body)
        case .comment, .action:
            guard !body.isEmpty else { return nil }
            let text = cut(body)
            guard readNames, !name.isEmpty else { return text }
            return SpeechLanguage.of(text) == .japanese ? "\(name)さん、\(text)" : "\(name): \(text)"
        }
    }

    /// At most `maxCharacters` characters, then "以下略" (Japanese) or "and more".
    func cut(_ text: String) -> String {
        guard text.count > maxCharacters else { return text }
        let kept = text.prefix(maxCharacters).trimmingTrailingSpaces()
        return SpeechLanguage.of(text) == .japanese ? kept + "、以下略" : kept + ", and more"
    }

    /// Emote codes out, URLs as "URL", masked NG words out, laughter runs once as "わら",
    /// spaces collapsed.
    static func cleaned(_ text: String, emotes: [Emote]) -> String {
        var scalars = Array(text.unicodeScalars)
        // From the end, so earlier ranges stay valid.
        for emote in emotes.sorted(by: { $0.range.lowerBound > $1.range.lowerBound })
        where emote.range.upperBound <= scalars.count {
            scalars.replaceSubrange(emote.range, with: [" "])
        }
        var out = String(String.UnicodeScalarView(scalars))
        out = out.replacing(#/(?i)(?:https?://|www\.)[^\s]+/#, with: " URL ")
        out = out.replacing(#/[＊*]{2,}|＊/#, with: " ")
        // wwww / ｗｗｗ / 草草草 (a run, standing alone or after other text) is one laugh.
        out = out.replacing(#/(^|[^A-Za-z])[wWｗＷ]{2,}(?![A-Za-z])/#) { "\($0.output.1) わら " }
        out = out.replacing(#/草{2,}/#, with: " わら ")
        out = out.replacing(#/(?:\s*わら\s*){2,}/#, with: " わら ")
        return out.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

extension Substring {
    func trimmingTrailingSpaces() -> String {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return String(self[startIndex..<end])
    }
}
