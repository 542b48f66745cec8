// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// A TwitCasting broadcaster's user id, from `https://twitcasting.tv/USER` (or a movie
/// page under it) or the id alone. Ids are letters, digits and `_`, with a `c:`, `f:` or
/// `g:` prefix for accounts made through other sites.
enum TwitCastingUser {
    static let maxLength = 64

    static func parse(_ input: String) throws(FeedConfigError) -> String {
        var text = Substring(input.trimmingWhitespace(andNewlines: true))
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        for host in ["twitcasting.tv/", "www.twitcasting.tv/", "en.twitcasting.tv/", "ja.twitcasting.tv/"]
            where text.lowercased().hasPrefix(host) {
            text = text.dropFirst(host.count)
        }
        let user = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !user.isEmpty else {
            throw FeedConfigError("the twitcasting service needs a user id or https://twitcasting.tv/USER as its stream id")
        }
        guard user.count <= maxLength,
              user.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                               || $0 == "_" || $0 == ":" || $0 == "-") }),
              !user.hasPrefix(":") else {
            throw FeedConfigError("bad TwitCasting user \(String(reflecting: String(input.prefix(80)))): expected https://twitcasting.tv/USER or the user id")
        }
        return String(user)
    }

    /// The id in a query: `:` percent-encoded, everything else is already safe.
    static func queryValue(_ user: String) -> String {
        user.replacing(":", with: "%3A")
    }
}
