// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// An OPENREC broadcast's id, from `https://www.openrec.tv/live/ID` or the id alone
/// (letters, digits, `_` and `-`).
enum OpenrecMovieID {
    static let maxLength = 64

    static func parse(_ input: String) throws(FeedConfigError) -> String {
        var text = Substring(input.trimmingWhitespace(andNewlines: true))
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        for host in ["www.openrec.tv/", "openrec.tv/"] where text.lowercased().hasPrefix(host) {
            text = text.dropFirst(host.count)
            guard text.hasPrefix("live/") else {
                throw FeedConfigError("bad OPENREC URL \(String(reflecting: String(input.prefix(80)))): expected https://www.openrec.tv/live/ID")
            }
            text = text.dropFirst(5)
        }
        let id = text.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !id.isEmpty else {
            throw FeedConfigError("the openrec service needs https://www.openrec.tv/live/ID or the id as its stream id")
        }
        guard id.count <= maxLength,
              id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                             || $0 == "_" || $0 == "-") }) else {
            throw FeedConfigError("bad OPENREC broadcast \(String(reflecting: String(input.prefix(80)))): expected https://www.openrec.tv/live/ID")
        }
        return String(id)
    }
}
