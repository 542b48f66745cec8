/// Readers for the Twitch tags CommentBar uses (dev.twitch.tv/docs/irc/tags).
/// Each returns nil or empty for a missing or malformed value rather than failing the line.
public enum TwitchTags {
    /// `badges=broadcaster/1,subscriber/12` → `["broadcaster", "subscriber"]`: the renderer
    /// draws one mark per kind of badge, so the version (months, tier) is dropped.
    public static func badges(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        return value.split(separator: ",").compactMap { item in
            let name = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return name.isEmpty ? nil : String(name.prefix(32))
        }.prefix(8).map { $0 }
    }

    /// One emote occurrence: the emote id and the range of Unicode scalars it covers in the text.
    public struct EmoteRange: Sendable, Equatable {
        public var id: String
        public var range: ClosedRange<Int>
    }

    /// `emotes=25:0-4,12-16/1902:6-10`, sorted by position. Ranges count Unicode scalars
    /// (Twitch counts code points). Malformed items are left out.
    public static func emotes(_ value: String?) -> [EmoteRange] {
        guard let value, !value.isEmpty else { return [] }
        var result: [EmoteRange] = []
        for emote in value.split(separator: "/") {
            let parts = emote.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { continue }
            for span in parts[1].split(separator: ",") {
                let bounds = span.split(separator: "-", maxSplits: 1)
                guard bounds.count == 2, let start = Int(bounds[0]), let end = Int(bounds[1]),
                      start >= 0, end >= start else { continue }
                result.append(EmoteRange(id: String(parts[0]), range: start...end))
                if result.count >= 256 { break }
            }
        }
        return result.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// A positive whole number (`bits`, `msg-param-mass-gift-count`), else nil.
    public static func positiveCount(_ value: String?) -> Int? {
        guard let value, let number = Int(value), number > 0 else { return nil }
        return number
    }

    /// The non-empty value of a tag, else nil.
    public static func text(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
