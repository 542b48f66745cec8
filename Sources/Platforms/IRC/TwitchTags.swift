// SPDX-License-Identifier: GPL-2.0-or-later
/// Readers for the Twitch tags CommentBar uses (dev.twitch.tv/docs/irc/tags).
/// Each returns nil or empty for a missing or malformed value rather than failing the line.
enum TwitchTags {
    /// `badges=broadcaster/1,subscriber/12` → `["broadcaster", "subscriber"]`: the renderer
    /// draws one mark per kind of badge, so the version (months, tier) is dropped.
    static func badges(_ value: String?) -> [String] {
        guard let value, !value.isEmpty else { return [] }
        return value.split(separator: ",").compactMap { item in
            let name = item.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return name.isEmpty ? nil : String(name.prefix(32))
        }.prefix(8).map { $0 }
    }

    /// A positive whole number (`bits`, `msg-param-mass-gift-count`), else nil.
    static func positiveCount(_ value: String?) -> Int? {
        guard let value, let number = Int(value), number > 0 else { return nil }
        return number
    }

    /// The non-empty value of a tag, else nil.
    static func text(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// A channel's or user's numeric id (`room-id`, `user-id`): digits only, else nil.
    static func roomID(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 20,
              value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return value
    }
}
