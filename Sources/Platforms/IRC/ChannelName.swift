// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarFeeds

/// Checks channel names before they reach a protocol line: a name that could smuggle a
/// command (CR, LF, NUL, spaces, commas) is refused, not cleaned.
package enum ChannelName {
    static let maxIRCLength = 50

    /// An IRC channel name → `#name`. One leading `#` is dropped, so `linux` and `#linux` are
    /// the same channel and `##linux` is Libera's `##linux`.
    package static func irc(_ id: String) throws(FeedConfigError) -> String {
        let name = withoutOneHash(id)
        guard !name.isEmpty else { throw FeedConfigError("the irc service needs a channel name as its stream id") }
        // RFC 2812 chanstring: no NUL, BEL, CR, LF, space, comma or colon; no other controls either.
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == " " || $0 == "," || $0 == ":" }) {
            throw FeedConfigError("bad irc channel \(String(reflecting: id)): it must not contain \(describe(bad))")
        }
        guard name.count <= maxIRCLength else {
            throw FeedConfigError("bad irc channel \(String(reflecting: id)): longer than \(maxIRCLength) characters")
        }
        return "#" + name
    }

    package static func withoutOneHash(_ id: String) -> Substring {
        id.hasPrefix("#") ? id.dropFirst() : Substring(id)
    }

    private static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": return "spaces"
        case ",": return "commas"
        case ":": return "colons"
        case "\r", "\n": return "line breaks"
        case "\0": return "NUL"
        default: return "control characters"
        }
    }
}
