import CommentBarFeeds

/// Checks stream ids before they reach a protocol line: an id that could smuggle a
/// command (CR, LF, NUL, spaces, commas) is refused, not cleaned.
enum StreamID {
    static let maxTwitchLength = 25
    static let maxIRCLength = 50
    static let maxWebSocketLength = 256

    /// A Twitch channel name → `#name` (lower case). One leading `#` is accepted and dropped.
    static func twitchChannel(_ id: String) throws(FeedConfigError) -> String {
        let name = withoutOneHash(id)
        guard !name.isEmpty else { throw FeedConfigError("the twitch service needs a channel name as its stream id") }
        guard name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
            throw FeedConfigError("bad twitch channel \(String(reflecting: id)): only letters, digits and _ are allowed")
        }
        guard name.count <= maxTwitchLength else {
            throw FeedConfigError("bad twitch channel \(String(reflecting: id)): longer than \(maxTwitchLength) characters")
        }
        return "#" + name.lowercased()
    }

    /// An IRC channel name → `#name`. One leading `#` is dropped, so `linux` and `#linux` are
    /// the same channel and `##linux` is Libera's `##linux`.
    static func ircChannel(_ id: String) throws(FeedConfigError) -> String {
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

    /// A stream id put into a WebSocket URL: percent-encoded, so anything but an overlong one is fine.
    static func webSocketPathComponent(_ id: String) throws(FeedConfigError) -> String {
        guard id.count <= maxWebSocketLength else {
            throw FeedConfigError("bad stream id: longer than \(maxWebSocketLength) characters")
        }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        var out = ""
        for byte in id.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func withoutOneHash(_ id: String) -> Substring {
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
