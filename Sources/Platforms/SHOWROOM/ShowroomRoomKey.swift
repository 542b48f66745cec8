// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore
import CommentBarFeeds

/// A SHOWROOM room's URL key, from `https://www.showroom-live.com/r/KEY`, the older
/// `https://www.showroom-live.com/KEY`, or the key alone. Keys are letters, digits, `_`,
/// `-` and `.`, so they go into API queries as they are.
enum ShowroomRoomKey {
    static let maxLength = 64

    static func parse(_ input: String) throws(FeedConfigError) -> String {
        var text = Substring(input.trimmingWhitespace(andNewlines: true))
        for prefix in ["https://", "http://"] where text.lowercased().hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        for host in ["www.showroom-live.com/", "showroom-live.com/"] where text.lowercased().hasPrefix(host) {
            text = text.dropFirst(host.count)
            if text.hasPrefix("r/") { text = text.dropFirst(2) }
        }
        // A query or fragment after the key is not part of it.
        let key = text.prefix { $0 != "?" && $0 != "#" && $0 != "/" }
        guard !key.isEmpty else {
            throw FeedConfigError("the showroom service needs a room URL (https://www.showroom-live.com/r/ROOM_KEY) or its key")
        }
        guard key.count <= maxLength, let first = key.unicodeScalars.first, first != ".", first != "-",
              key.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                                                              || $0 == "_" || $0 == "-" || $0 == ".") }) else {
            throw FeedConfigError("bad SHOWROOM room \(String(reflecting: String(input.prefix(80)))): expected https://www.showroom-live.com/r/ROOM_KEY")
        }
        return String(key)
    }
}
