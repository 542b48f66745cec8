// SPDX-License-Identifier: GPL-2.0-or-later
import CommentBarCore

/// Twitch's `emotes` tag (dev.twitch.tv/docs/irc/tags, PRIVMSG/USERNOTICE): `25:0-4,12-16/1902:6-10`
/// names, for each emote id, the inclusive code-point ranges of the message it replaces. Each
/// occurrence becomes an `Emote` with the image from Twitch's emote CDN. Anything malformed
/// (a bad id, a reversed range, one past the text) is skipped: the text then shows as text.
package enum TwitchEmoteTag {
    /// 2.0 is Twitch's 56 px image: enough for the bar's line height without downscaling much.
    static func imageURL(id: String) -> String {
        "https://static-cdn.jtvnw.net/emoticons/v2/\(id)/default/dark/2.0"
    }

    /// Longer ids than this are not Twitch's (`emotesv2_` + 32 hex digits is 41).
    static let maxIDLength = 64
    /// How many ranges are looked at at most: a tag of a million ranges does no work.
    static let maxOccurrences = Emote.maxPerRow * 4

    /// The emotes of `text` as the tag describes them, in text order. `offset` is how many
    /// scalars the row puts before `text` (a USERNOTICE row shows Twitch's system message first).
    static func emotes(_ tag: String?, in text: String, offset: Int = 0) -> [Emote] {
        guard let tag, !tag.isEmpty, offset >= 0 else { return [] }
        let scalars = Array(text.unicodeScalars)
        var found: [Emote] = []
        var looked = 0
        for entry in tag.split(separator: "/") {
            let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, isEmoteID(parts[0]) else { continue }
            let url = imageURL(id: String(parts[0]))
            for range in parts[1].split(separator: ",") {
                looked += 1
                guard looked <= maxOccurrences else { break }
                let bounds = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                guard bounds.count == 2, bounds[0].count <= 6, bounds[1].count <= 6,
                      let first = Int(bounds[0]), let last = Int(bounds[1]),
                      first >= 0, first <= last, last < scalars.count else { continue }
                let name = String(String.UnicodeScalarView(scalars[first...last]))
                found.append(Emote(range: (first + offset)..<(last + 1 + offset), name: name, url: url))
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// Twitch's ids are digits or `emotesv2_…`: letters, digits and `_` only, so the id can
    /// stand in the URL as it is.
    static func isEmoteID(_ id: Substring) -> Bool {
        !id.isEmpty && id.utf8.count <= maxIDLength && id.unicodeScalars.allSatisfy {
            $0.isASCII && (("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}
