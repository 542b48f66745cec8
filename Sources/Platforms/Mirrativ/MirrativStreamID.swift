// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// What a Mirrativ stream id names: a live (`https://www.mirrativ.com/live/LIVE_ID` or the id
/// alone) or a streamer (`https://www.mirrativ.com/user/USER_ID`), whose current live the
/// profile API names.
enum MirrativStreamID: Sendable, Equatable {
    case live(String)
    case user(String)

    static let maxLength = 64

    static func parse(_ input: String) throws(FeedConfigError) -> MirrativStreamID {
        var text = Substring(input.trimmingWhitespace(andNewlines: true))
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        var isUser = false
        for host in ["www.mirrativ.com/", "mirrativ.com/"] where text.lowercased().hasPrefix(host) {
            text = text.dropFirst(host.count)
            if text.hasPrefix("live/") {
                text = text.dropFirst(5)
            } else if text.hasPrefix("user/") {
                text = text.dropFirst(5)
                isUser = true
            } else {
                throw FeedConfigError("bad Mirrativ URL \(String(reflecting: String(input.prefix(80)))): expected https://www.mirrativ.com/live/LIVE_ID or /user/USER_ID")
            }
        }
        if text.hasPrefix("user:") {
            text = text.dropFirst(5)
            isUser = true
        }
        let id = text.prefix { $0 != "?" && $0 != "#" && $0 != "/" }
        guard !id.isEmpty else {
            throw FeedConfigError("the mirrativ service needs a live URL (https://www.mirrativ.com/live/LIVE_ID) or a user page")
        }
        guard id.count <= maxLength, id.unicodeScalars.allSatisfy({
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }), !isUser || id.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw FeedConfigError("bad Mirrativ id \(String(reflecting: String(input.prefix(80)))): expected https://www.mirrativ.com/live/LIVE_ID or /user/DIGITS")
        }
        return isUser ? .user(String(id)) : .live(String(id))
    }

    /// A live id from an API answer, before it goes into a URL.
    static func isLiveID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxLength && id.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }
    }
}
