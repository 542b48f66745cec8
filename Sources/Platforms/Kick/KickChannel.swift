// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// What a Kick stream id names: a channel (`https://kick.com/NAME` or the name), whose public
/// channel JSON gives the chatroom, or a chatroom id typed directly (`chatroom:ID`, from the
/// list form `kick:chatroom:ID`) for when Kick's bot wall refuses that JSON.
enum KickChannel: Sendable, Equatable {
    case channel(slug: String)
    case chatroom(id: Int)

    /// Kick's channel names: letters, digits, `_` and `-`, at most 25 (Kick's own limit).
    static let maxNameLength = 25

    static func parse(_ input: String) throws(FeedConfigError) -> KickChannel {
        var text = Substring(input.trimmingWhitespace(andNewlines: true))
        if text.lowercased().hasPrefix("chatroom:") {
            let digits = text.dropFirst("chatroom:".count)
            guard !digits.isEmpty, digits.count <= 12, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                  let id = Int(digits), id > 0 else {
                throw FeedConfigError("bad Kick chatroom id \(String(reflecting: String(input.prefix(40)))): expected kick:chatroom:DIGITS")
            }
            return .chatroom(id: id)
        }
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        for host in ["www.kick.com/", "kick.com/"] where text.lowercased().hasPrefix(host) {
            text = text.dropFirst(host.count)
        }
        let name = text.prefix { $0 != "?" && $0 != "#" && $0 != "/" }
        guard !name.isEmpty else {
            throw FeedConfigError("the kick service needs a channel URL (https://kick.com/NAME), its name, or kick:chatroom:ID")
        }
        guard name.count <= maxNameLength, name.unicodeScalars.allSatisfy({
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }) else {
            throw FeedConfigError("bad Kick channel \(String(reflecting: String(input.prefix(80)))): expected https://kick.com/NAME")
        }
        // Kick's channel URLs are the slug: lower case, `_` written as `-`.
        return .channel(slug: name.lowercased().replacing("_", with: "-"))
    }
}
